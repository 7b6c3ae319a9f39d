import Foundation

/// A stable digest of a change set: ``FNV1a`` over its canonical JSON (sorted keys), in
/// 16 hex digits. Equal change sets, equal digests — so a restarted application can tell
/// whether the working copy still holds what an interrupted attempt published. It tells values
/// apart; it is not a secret and not collision-resistant against an adversary.
///
/// ```swift
/// ChangeDigest.of(patch)  // "3f2a9c0d1e4b5a67"
/// ```
public enum ChangeDigest {
  /// The digest of `changes`.
  public static func of(_ changes: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes = (try? encoder.encode(changes)).map(Array.init) ?? []
    return hex(FNV1a.hash(bytes))
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
