import ComposableAuthoring
import ComposableCore

/// What the demo app's clients share: the application session, the device's grant storage
/// (persisted and incoming shared grants), and the capability provider Authoring publishes the
/// validated capability into.
///
/// The app owns it and composes every client with it, as a real app would compose its network
/// clients with its session and the capability provider.
public final class DemoCredentials: Sendable {
  public struct Values: Sendable, Equatable, Codable {
    /// The signed-in application session.
    public var session: DemoSession?
    /// The grant persisted on the device, revalidated at start.
    public var persistedGrant: AuthoringGrant?
    /// A grant handed over by another app; cleared at start, never used.
    public var incomingSharedGrant: AuthoringGrant?

    public init(
      session: DemoSession? = nil, persistedGrant: AuthoringGrant? = nil,
      incomingSharedGrant: AuthoringGrant? = nil
    ) {
      self.session = session
      self.persistedGrant = persistedGrant
      self.incomingSharedGrant = incomingSharedGrant
    }
  }

  private let values: LockIsolated<Values>

  /// The validated capability in force: Authoring publishes into it, the clients read it at
  /// every call. The only place the demo keeps the grant in force.
  public let capability = AuthoringCapabilityProvider()

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
