import ComposableCore

/// Application authentication: the demo app's own feature, not one of the package's owners. It
/// knows sessions and passwords, and nothing of admission or proposals.
public struct AuthClient: DependencyKey, Sendable {
  /// Signs in; the new session replaces any previous one.
  public var signIn: @Sendable (_ username: String, _ password: String) async throws -> DemoSession
  /// Ends the current session.
  public var signOut: @Sendable () async -> Void

  public init(
    signIn: @escaping @Sendable (String, String) async throws -> DemoSession,
    signOut: @escaping @Sendable () async -> Void
  ) {
    self.signIn = signIn
    self.signOut = signOut
  }

  public static var liveValue: AuthClient { unimplementedClient }
  public static var testValue: AuthClient { unimplementedClient }

  private static var unimplementedClient: AuthClient {
    AuthClient(
      signIn: unimplemented("AuthClient.signIn"),
      signOut: unimplemented("AuthClient.signOut", placeholder: ())
    )
  }

  /// The client over the in-memory system.
  public static func demo(system: DemoSystem, credentials: DemoCredentials) -> AuthClient {
    AuthClient(
      signIn: { username, password in
        let session = try await system.signIn(username: username, password: password)
        let previous = credentials.update { values -> DemoSession? in
          defer { values.session = session }
          return values.session
        }
        if let previous { await system.signOut(token: previous.token) }
        return session
      },
      signOut: {
        let previous = credentials.update { values -> DemoSession? in
          defer { values.session = nil }
          return values.session
        }
        if let previous { await system.signOut(token: previous.token) }
      }
    )
  }
}
