import ComposableCore

extension CasePath<Authoring.Action, Authoring.Action.Delegate> {
  /// `Authoring.Action.delegate`.
  public static var delegate: Self {
    Self(embed: Authoring.Action.delegate) {
      if case .delegate(let delegate) = $0 { delegate } else { nil }
    }
  }
}

extension CasePath<Authoring.Action.Delegate, AuthoringContext> {
  /// `Authoring.Action.Delegate.grantValidated`.
  public static var grantValidated: Self {
    Self(embed: Authoring.Action.Delegate.grantValidated) {
      if case .grantValidated(let context) = $0 { context } else { nil }
    }
  }
}

extension CasePath<Authoring.Action.Delegate, Void> {
  /// `Authoring.Action.Delegate.grantInvalidated`.
  public static var grantInvalidated: Self {
    Self(
      embed: { _ in .grantInvalidated },
      extract: { if case .grantInvalidated = $0 { () } else { nil } }
    )
  }
}
