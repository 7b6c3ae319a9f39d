import ComposableWorkspace

/// Turns arbitrary text into one safe file or directory name: ASCII letters, digits, `-`, `_`
/// and a non-leading `.` are kept, every other byte (and a leading `.`) is written `%XX`. So
/// distinct texts never share a name, and no text can name `..`, a hidden entry or a path.
///
/// ```swift
/// PathComponent.escaping("a/b")  // "a%2Fb"
/// ```
public enum PathComponent {
  public static func escaping(_ text: String) -> String {
    guard !text.isEmpty else { return "%" }
    var name = ""
    for (offset, byte) in text.utf8.enumerated() {
      let isSafe =
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
        || (byte == 0x2E && offset > 0)
      if isSafe {
        name.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        name += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return name
  }
}

extension WorkspaceID {
  /// The id as one safe directory name (see ``PathComponent``).
  public var directoryName: String { PathComponent.escaping(rawValue) }
}
