import ComposableAuthoring
import WorkspaceDemoFeature

extension DemoSystem {
  /// The current authoring capability of `credentials` as this system sees it: the context
  /// Authoring validated (`credentials.capability`), if the system still honours its grant for
  /// the signed-in session, else `nil` — which a live workspace client answers with
  /// `WorkspaceAuthorizationError.invalidated`. For backends whose accounts stay on the
  /// in-memory system (Git, SQLite).
  nonisolated public func honouredCapability(
    of credentials: DemoCredentials
  ) -> @Sendable () async -> AuthoringContext? {
    {
      guard let context = credentials.capability.current,
        let session = credentials.current.session,
        (try? await self.validate(grantID: context.grant.rawValue, token: session.token)) != nil
      else { return nil }
      return context
    }
  }
}
