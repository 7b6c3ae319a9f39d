import ComposableAuthoring

/// The name and e-mail address git records as author and committer.
///
/// The Git integration derives it from the validated `AuthoringContext` of each operation
/// (``GitWorkspaceConfiguration/signature``), so commits never depend on global git config.
public struct GitSignature: Hashable, Sendable, Codable {
  /// `user.name`.
  public var name: String
  /// `user.email`.
  public var email: String

  public init(name: String, email: String) {
    self.name = name
    self.email = email
  }

  /// The default mapping: the identity is the name; it is also the e-mail address when it
  /// looks like one, else `<identity>@users.workspace.invalid`.
  public static func from(_ context: AuthoringContext) -> GitSignature {
    let identity = context.identity.rawValue
    let email = identity.contains("@") ? identity : "\(identity)@users.workspace.invalid"
    return GitSignature(name: identity.isEmpty ? "workspace" : identity, email: email)
  }
}
