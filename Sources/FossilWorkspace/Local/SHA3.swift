/// SHA3-256 (FIPS 202): the name Fossil gives every artifact of a repository made by Fossil
/// 2.10 or later (64 hex digits). Used to tell whether an editable file still holds its
/// baseline's artifact, without a pristine copy of it.
///
/// ```swift
/// SHA3.hash256(Array("abc".utf8)).hexString
/// // "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"
/// ```
///
/// One pass over the bytes: O(n) time, 200 bytes of state.
enum SHA3 {
  /// The 32-byte SHA3-256 digest of `bytes`.
  static func hash256(_ bytes: some Collection<UInt8>) -> [UInt8] {
    let message = Array(bytes)
    var state = [UInt64](repeating: 0, count: 25)
    var offset = 0
    while message.count - offset >= rate {
      absorb(message, at: offset, into: &state)
      offset += rate
    }
    // The last bytes, the SHA-3 domain bits (01), then pad10*1.
    var last = Array(message[offset...])
    last.append(0x06)
    last.append(contentsOf: repeatElement(0, count: rate - last.count))
    last[rate - 1] |= 0x80
    absorb(last, at: 0, into: &state)
    return (0..<32).map { UInt8(truncatingIfNeeded: state[$0 / 8] >> (UInt64($0 % 8) * 8)) }
  }

  /// Bytes absorbed per permutation: 1,600 bits of state less the 512-bit capacity.
  private static let rate = 136

  /// XORs the block of `rate` bytes at `offset` into the state (little-endian lanes), then
  /// permutes it.
  private static func absorb(_ bytes: [UInt8], at offset: Int, into state: inout [UInt64]) {
    for lane in 0..<(rate / 8) {
      var value: UInt64 = 0
      for byte in 0..<8 { value |= UInt64(bytes[offset + lane * 8 + byte]) << (UInt64(byte) * 8) }
      state[lane] ^= value
    }
    permute(&state)
  }

  /// Keccak-f[1600]: 24 rounds of θ, ρ and π, χ, ι.
  private static func permute(_ state: inout [UInt64]) {
    var columns = [UInt64](repeating: 0, count: 5)
    for constant in roundConstants {
      for x in 0..<5 {
        columns[x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20]
      }
      for x in 0..<5 {
        let mixed = columns[(x + 4) % 5] ^ rotate(columns[(x + 1) % 5], 1)
        for y in stride(from: 0, to: 25, by: 5) { state[y + x] ^= mixed }
      }
      var carried = state[1]
      for step in 0..<24 {
        let target = piLanes[step]
        let replaced = state[target]
        state[target] = rotate(carried, rotations[step])
        carried = replaced
      }
      for y in stride(from: 0, to: 25, by: 5) {
        for x in 0..<5 { columns[x] = state[y + x] }
        for x in 0..<5 { state[y + x] ^= ~columns[(x + 1) % 5] & columns[(x + 2) % 5] }
      }
      state[0] ^= constant
    }
  }

  private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
    value << count | value >> (64 - count)
  }

  private static let rotations: [UInt64] = [
    1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
  ]

  private static let piLanes = [
    10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
  ]

  private static let roundConstants: [UInt64] = [
    0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808A, 0x8000_0000_8000_8000,
    0x0000_0000_0000_808B, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
    0x0000_0000_0000_008A, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000A,
    0x0000_0000_8000_808B, 0x8000_0000_0000_008B, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
    0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800A, 0x8000_0000_8000_000A,
    0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
  ]
}
