/// Git's rules for a branch name, checked in Swift: the answer `git check-ref-format
/// refs/heads/<name>` gives, without starting a process for it (every preparation, baseline
/// selection, publication and review checks its branch). The client adds two rules of its own
/// (``isUsable(_:)``).
///
/// Git's rules for a ref name (`git help check-ref-format`), for `refs/heads/<name>`:
/// no component is empty, begins with `.` or ends with `.lock`; the name has no `..`, no `@{`,
/// no ASCII control character or DEL, none of space `~ ^ : ? * [ \`, and does not end with `.`.
/// Bytes beyond ASCII are allowed. O(n) in the name's UTF-8 bytes.
enum GitBranchNameRules {
  /// Whether the client accepts `name`: well formed for git, and neither an option to git
  /// (a leading `-`) nor a full ref (`refs/…`, which would name a ref under `refs/heads/refs/`).
  static func isUsable(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix("-") && !name.hasPrefix("refs/") && isWellFormed(name)
  }

  /// Whether `refs/heads/<name>` is a well-formed ref name for git.
  static func isWellFormed(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard bytes.last != dot else { return false }
    var previous: UInt8 = slash  // `refs/heads/` ends with one
    var componentStart = 0
    for (index, byte) in bytes.enumerated() {
      if isForbidden(byte) { return false }
      switch (previous, byte) {
      case (dot, dot), (at, openBrace), (slash, slash): return false
      case (slash, dot): return false  // a component beginning with `.`
      default: break
      }
      if byte == slash {
        if endsWithLock(bytes[componentStart..<index]) { return false }
        componentStart = index + 1
      }
      previous = byte
    }
    return previous != slash && !endsWithLock(bytes[componentStart...])
  }

  private static let dot = UInt8(ascii: ".")
  private static let slash = UInt8(ascii: "/")
  private static let at = UInt8(ascii: "@")
  private static let openBrace = UInt8(ascii: "{")
  private static let lockSuffix = Array(".lock".utf8)

  private static func isForbidden(_ byte: UInt8) -> Bool {
    switch byte {
    case 0..<0x20, 0x7F: true
    case UInt8(ascii: " "), UInt8(ascii: "~"), UInt8(ascii: "^"), UInt8(ascii: ":"),
      UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "\\"):
      true
    default: false
    }
  }

  private static func endsWithLock(_ component: ArraySlice<UInt8>) -> Bool {
    component.count >= lockSuffix.count
      && component.suffix(lockSuffix.count).elementsEqual(lockSuffix)
  }
}
