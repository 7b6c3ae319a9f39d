import ComposableWorkspace

extension WorkspaceID {
  /// The id as one safe directory name: ASCII letters, digits, `-`, `_` and `.` are kept, every
  /// other byte (and a leading `.`) is written `%XX`, so distinct ids never share a directory
  /// and no id can name `..`, a hidden directory or a path.
  var directoryName: String {
    guard !rawValue.isEmpty else { return "%" }
    var name = ""
    for (offset, byte) in rawValue.utf8.enumerated() {
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
