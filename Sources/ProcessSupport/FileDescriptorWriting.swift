import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing whole buffers to a file descriptor, for the places that write through descriptors of
/// their own (a hook script, a child's input, the demo's state file, its terminal output).
public enum FileDescriptorWriting {
  /// Writes every byte of `bytes` to `descriptor`, again after an interrupted write. Returns
  /// `false` when a write fails (`errno` tells why) or writes nothing.
  public static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return false }
        let written = write(descriptor, base + offset, buffer.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
      }
      return true
    }
  }
}
