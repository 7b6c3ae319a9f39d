import ComposableCore

/// The one source of the current authoring capability for clients: it holds exactly the
/// ``AuthoringContext`` that ``Authoring`` validated, and nothing else.
///
/// Authoring publishes into the provider installed for it
/// (`@Dependency(AuthoringCapabilityProvider.self)`) in the same main-actor turn as each change
/// of ``Authoring/State/admission``: a context appears only once validated, and is gone as soon
/// as it is invalidated, revoked or left. A cancelled (late) answer never reaches it, as it
/// never reaches Authoring's state. No client or application code writes it.
///
/// The application makes one per Authoring, installs it once at its composition root, and
/// hands the same instance to the clients it builds:
///
/// ```swift
/// let capability = AuthoringCapabilityProvider()
/// let workspaceClient = WorkspaceClient.git(remote: url, root: workspaces, capability: capability)
///
/// EventApplication()
///   .dependency(capability)
///   .dependency(authoringClient)
///   .dependency(workspaceClient)
/// ```
///
/// A client reads it at **every external call** (never caching a context across calls), and
/// answers `WorkspaceAuthorizationError.invalidated` when there is none, or when the context
/// lacks what the call needs:
///
/// ```swift
/// publishProposal: { source, baseline, changes, request in
///   guard let context = capability.current, context.canPublish else {
///     throw WorkspaceAuthorizationError.invalidated
///   }
///   return try await api.createProposal(changes, against: baseline, grant: context.grant,
///                                       idempotencyKey: request.idempotencyKey)
/// }
/// ```
///
/// The server stays the authority: a context read here can be revoked on the server a moment
/// later, and the client then answers `.invalidated` too.
///
/// `liveValue` is one provider for the process and `testValue` one per test store, so an app
/// with a single Authoring may rely on the default; an app with two Authoring features gives
/// each its own.
public final class AuthoringCapabilityProvider: DependencyKey, Sendable {
  private let context: LockIsolated<AuthoringContext?>

  /// A provider with nothing in force: what Authoring publishes into.
  public convenience init() {
    self.init(inForce: nil)
  }

  /// A provider with `context` in force until Authoring publishes into it: for tests and
  /// previews of a client, which have no Authoring running. An application uses ``init()``.
  public init(inForce context: AuthoringContext?) {
    self.context = LockIsolated(context)
  }

  /// The validated capability in force now, or `nil`.
  public var current: AuthoringContext? { context.current }

  /// Sets what is in force: called by Authoring (and by this package's tests) only.
  func publish(_ context: AuthoringContext?) {
    self.context.setValue(context)
  }

  /// One provider for the process.
  public static var liveValue: AuthoringCapabilityProvider { AuthoringCapabilityProvider() }

  /// One provider per test store (each test store has its own default values).
  public static var testValue: AuthoringCapabilityProvider { AuthoringCapabilityProvider() }
}
