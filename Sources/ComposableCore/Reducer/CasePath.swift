/// An explicit, compile-checked path to one case of an enum: embed a value into the case, or
/// extract it when the enum is that case.
///
/// Swift on Linux has no macros, so case paths are written once per case, as static members,
/// so that call sites read like TCA's:
///
/// ```swift
/// enum AppAction { case editing(Editing.Action) }
///
/// extension CasePath<AppAction, Editing.Action> {
///   static var editing: Self {
///     Self(embed: AppAction.editing) { if case .editing(let a) = $0 { a } else { nil } }
///   }
/// }
///
/// Scope(state: \.editing, action: .editing) { Editing() }
/// ```
///
/// Both operations are O(1) and use no reflection.
///
/// Declared in an extension constrained on `Root` alone (not on `Value`), a case path chains:
/// `.child.tap` and TCA's key-path spelling `\.child.tap` both work, as do `Result`'s
/// `.success`/`.failure` and an ``IdentifiedAction``'s `[id:]` — see ``CaseKeyPath``.
///
/// ```swift
/// extension CasePath where Root == AppAction {
///   static var editing: CasePath<Root, Editing.Action> { CasePath(Root.editing) }
/// }
/// store.receive(.editing.saved)    // or TCA's spelling: store.receive(\.editing.saved)
/// ```
///
/// `CasePath(Root.editing)` builds a case path from the case's constructor alone; it finds the
/// case by reflection (see `init(_:)` for its cost and limits).
///
/// A case path is `Sendable` because its two functions are pure: the case's constructor and a
/// pattern match. Build them from exactly that — never from closures that capture mutable
/// state. (Taking plain closures lets generic features write case paths without their
/// metatypes having to be `Sendable`.)
@dynamicMemberLookup
public struct CasePath<Root, Value>: @unchecked Sendable {
  @usableFromInline let _embed: (Value) -> Root
  @usableFromInline let _extract: (Root) -> Value?

  /// Creates a case path from the case's constructor and a pattern match.
  public init(
    embed: @escaping (Value) -> Root,
    extract: @escaping (Root) -> Value?
  ) {
    self._embed = embed
    self._extract = extract
  }

  /// Wraps `value` in the case.
  @inlinable
  public func embed(_ value: Value) -> Root { _embed(value) }

  /// The case's associated value, or `nil` when `root` is another case.
  @inlinable
  public func extract(from root: Root) -> Value? { _extract(root) }

  /// A path through this case and then through `next`.
  public func appending<Next>(_ next: CasePath<Value, Next>) -> CasePath<Root, Next> {
    CasePath<Root, Next>(
      embed: { self.embed(next.embed($0)) },
      extract: { self.extract(from: $0).flatMap(next.extract(from:)) }
    )
  }

  /// Chains a case path declared on `Value`: with `static var tap: CasePath<Child, Void>` in
  /// an extension of `CasePath where Root == Child`, `CasePath<Parent, Child>.child.tap` is
  /// `.child.appending(.tap)`.
  public subscript<Next>(
    dynamicMember next: KeyPath<CasePath<Value, Next>.Type, CasePath<Value, Next>>
  ) -> CasePath<Root, Next> {
    appending(CasePath<Value, Next>.self[keyPath: next])
  }
}

extension CasePath where Root == Value {
  /// The identity path: every value is "in the case".
  public static var `self`: Self {
    Self(embed: { $0 }, extract: { $0 })
  }
}
