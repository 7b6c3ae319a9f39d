import ComposableAuthoring
import ComposableCore

/// In-memory grant storage behind a test client: the persisted grant, and incoming shared
/// grants (delivered by links) waiting to be picked up.
final class GrantStorage: Sendable {
  private struct Slots {
    var persisted: AuthoringGrant?
    var incoming: [AuthoringGrant]
  }

  private let slots: LockIsolated<Slots>

  init(persisted: AuthoringGrant? = nil, incoming: [AuthoringGrant] = []) {
    slots = LockIsolated(Slots(persisted: persisted, incoming: incoming))
  }

  var persisted: AuthoringGrant? { slots.withValue { $0.persisted } }
  var incoming: [AuthoringGrant] { slots.withValue { $0.incoming } }

  func persist(_ grant: AuthoringGrant) { slots.withValue { $0.persisted = grant } }
  func clearIncoming() { slots.withValue { $0.incoming = [] } }
  /// Removes the persisted grant only when it is still `grant` (the client contract).
  func discard(_ grant: AuthoringGrant) {
    slots.withValue { if $0.persisted == grant { $0.persisted = nil } }
  }
}

extension AuthoringClient {
  /// The unimplemented test client with its storage endpoints backed by `storage` and every
  /// storage call logged. `validate` and `requestAdmission` stay unimplemented: each story
  /// overrides the ones it uses, and any other call fails the test.
  static func storing(in storage: GrantStorage, log: CallLog) -> Self {
    var client = AuthoringClient.testValue
    client.clearIncomingSharedGrants = {
      log.record("clearIncomingSharedGrants")
      storage.clearIncoming()
    }
    client.restorePersistedGrant = {
      log.record("restorePersistedGrant")
      return storage.persisted
    }
    client.persist = {
      log.record("persist(\($0.rawValue))")
      storage.persist($0)
    }
    client.discardPersistedGrant = {
      log.record("discardPersistedGrant(\($0.rawValue))")
      storage.discard($0)
    }
    client.relinquish = { log.record("relinquish(\($0.rawValue))") }
    return client
  }
}
