import ComposableAuthoring
import ComposableCore

/// What the demo app's clients share: the application session, the authoring grant in force,
/// and the device's grant storage (persisted and incoming shared grants).
///
/// The app owns it and composes every client with it, as a real app would compose its network
/// clients with its session and the AuthoringContext capability.
public final class DemoCredentials: Sendable {
  public struct Values: Sendable, Equatable, Codable {
    /// The signed-in application session.
    public var session: DemoSession?
    /// The grant of the currently validated authoring capability.
    public var grant: AuthoringGrant?
    /// The grant persisted on the device, revalidated at start.
    public var persistedGrant: AuthoringGrant?
    /// A grant handed over by another app; cleared at start, never used.
    public var incomingSharedGrant: AuthoringGrant?

    public init(
      session: DemoSession? = nil, grant: AuthoringGrant? = nil,
      persistedGrant: AuthoringGrant? = nil, incomingSharedGrant: AuthoringGrant? = nil
    ) {
      self.session = session
      self.grant = grant
      self.persistedGrant = persistedGrant
      self.incomingSharedGrant = incomingSharedGrant
    }
  }

  private let values: LockIsolated<Values>

  public init(_ values: Values = Values()) {
    self.values = LockIsolated(values)
  }

  /// A copy of the current values.
  public var current: Values { values.current }

  /// Changes the values atomically.
  @discardableResult
  public func update<R>(_ body: (inout Values) -> R) -> R {
    values.withValue(body)
  }
}
