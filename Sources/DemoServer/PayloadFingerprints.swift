import ComposableCore
import DemoHTTPProtocol
import Foundation
import HTTPMessages

/// The payload each idempotency key was first used with, per caller: a retry must send the
/// same payload (IETF Idempotency-Key draft: "the fingerprint of the request payload"), or it is
/// refused with 422 instead of answered with the first request's record.
///
/// The fingerprint covers the whole proposal — title, summary, branch, base and changes — and
/// leaves out the grant it is sent under, which names the authority of the request, not its
/// content (a retry after re-admission carries a new grant for the same proposal).
final class PayloadFingerprints: Sendable {
  private let fingerprints = LockIsolated<[String: [UInt8]]>([:])

  /// Records `proposal`'s fingerprint under `scopedKey` if the key is new; `false` when the
  /// key was first used with another payload.
  func admit(_ proposal: DemoAPI.NewProposal, under scopedKey: String) -> Bool {
    let fingerprint = Self.fingerprint(of: proposal)
    return fingerprints.withValue { fingerprints in
      if let first = fingerprints[scopedKey] { return first == fingerprint }
      fingerprints[scopedKey] = fingerprint
      return true
    }
  }

  /// Forgets a key whose request created nothing (refused), so a corrected retry may use it.
  func forget(_ scopedKey: String) {
    _ = fingerprints.withValue { $0.removeValue(forKey: scopedKey) }
  }

  /// SHA-256 of the proposal's canonical JSON (sorted keys), grant left out.
  static func fingerprint(of proposal: DemoAPI.NewProposal) -> [UInt8] {
    var content = proposal
    content.grant = ""
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return SHA256.hash((try? encoder.encode(content)) ?? Data())
  }
}
