/// The 64-bit FNV-1a hash: fast and stable across runs and machines, for telling values apart
/// (``ChangeDigest``, a fingerprint shown instead of a secret). Not a secret itself, and not
/// collision-resistant against an adversary.
///
/// ```swift
/// FNV1a.hash("hello".utf8)  // 0xa430d84680aabd0b
/// ```
public enum FNV1a {
  /// The hash of `bytes`.
  public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }
}
