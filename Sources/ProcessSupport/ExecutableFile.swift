import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a script that another process will execute (a git hook).
///
/// Written through a descriptor that is closed on `exec` (`O_CLOEXEC`) to a fresh file beside
/// the target, then renamed over it. Foundation's writers do not ask for close-on-exec, so a
/// child that this process starts while the file is being written (a `git` spawned by another
/// task) would inherit the writable descriptor and keep it for its whole life: executing the
/// script then fails with "Text file busy" (ETXTBSY) until that child ends.
public enum ExecutableFile {
  /// Writes `text` to `file` with `permissions`, replacing what is there.
  public static func write(_ text: String, to file: URL, permissions: mode_t) throws {
    let temporary = file.deletingLastPathComponent()
      .appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
    guard descriptor >= 0 else { throw failure("cannot create", temporary) }
    guard FileDescriptorWriting.writeAll(Array(text.utf8), to: descriptor) else {
      let error = failure("cannot write", temporary)
      close(descriptor)
      unlink(temporary.path)
      throw error
    }
    guard close(descriptor) == 0, fchmodat(AT_FDCWD, temporary.path, permissions, 0) == 0,
      rename(temporary.path, file.path) == 0
    else {
      let error = failure("cannot install", file)
      unlink(temporary.path)
      throw error
    }
  }

  private static func failure(_ what: String, _ file: URL) -> CocoaError {
    CocoaError(
      .fileWriteUnknown,
      userInfo: [
        NSFilePathErrorKey: file.path,
        NSLocalizedDescriptionKey: "\(what) \(file.path): \(String(cString: strerror(errno)))",
      ])
  }
}
