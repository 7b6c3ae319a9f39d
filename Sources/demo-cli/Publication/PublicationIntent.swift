import ComposableWorkspace
import Foundation
import WorkspaceDemoFeature

/// One publication attempt, as it is made durable before the backend is asked to create its
/// record: the request (title, summary and the idempotency key every retry sends), the
/// workspace and baseline it publishes against, and a digest of its change set.
///
/// Kept in the state file (`pendingPublication`) until the attempt's outcome is known and
/// saved, so after a crash at any step the restarted tool sends the same request again — the
/// backend answers the record if it was created — instead of forgetting the key.
struct PublicationIntent: Codable, Equatable, Sendable {
  var request: ProposalRequest
  var workspace: WorkspaceID
  var baseline: WorkspaceBranchReference
  /// ``digest(of:)`` of the change set the attempt publishes.
  var changes: String

  /// A stable digest of `changes` (64-bit FNV-1a over its canonical JSON, in hex): equal
  /// change sets, equal digests.
  static func digest(of changes: EventChangeSet) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes = (try? encoder.encode(changes)).map(Array.init) ?? []
    let hex = String(FNV1a.hash(bytes), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}

/// The 64-bit FNV-1a hash: a fast, stable digest for telling values apart (not a secret, and
/// not collision-resistant against an adversary).
enum FNV1a {
  static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
