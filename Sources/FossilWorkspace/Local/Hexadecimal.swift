import Foundation

// Bytes as hex digits and back: how hashes are named and how `fossil sql` hands over blobs.

extension Sequence<UInt8> {
  /// Lowercase hexadecimal.
  var hexString: String {
    map { byte in
      let text = String(byte, radix: 16)
      return text.count == 1 ? "0" + text : text
    }.joined()
  }
}

extension Data {
  /// The bytes `text` writes as pairs of hex digits; `nil` for anything else.
  init?(hexadecimal text: String) {
    let digits = Array(text.utf8)
    guard digits.count.isMultiple(of: 2) else { return nil }
    var bytes = [UInt8]()
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1])
      else { return nil }
      bytes.append(high << 4 | low)
    }
    self.init(bytes)
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
