import Foundation
import ProcessSupport

/// Reads and writes a state file on disk: atomically (a temporary file in the same directory,
/// then `rename`, then the directory synced), with mode 0600.
///
/// The file holds a session token and a grant, so it is used only when it is safely this
/// user's (see ``StateFilePolicy``); otherwise it is refused, and left as it is.
struct StateFileStorage: Sendable {
  let path: String

  /// Throws when something that is not a regular file is at the path (before anything, such
  /// as its lock file, is made beside it).
  func checkKind() throws(StateFileError) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFLNK: throw .refused("it is a symbolic link; give the path of the file itself")
    default: throw .refused("it is not a regular file")
    }
  }

  /// The saved state, or `nil` when there is no file yet (its directory must then be
  /// writable, so the first save can succeed).
  func load() throws(StateFileError) -> StateFile? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      switch errno {
      case ENOENT:
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard access(directory, W_OK | X_OK) == 0 else {
          throw .unwritable("its directory \(directory): \(systemError())")
        }
        return nil
      case ELOOP:
        throw .refused("it is a symbolic link; give the path of the file itself")
      default:
        throw .unreadable(systemError())
      }
    }
    defer { close(descriptor) }
    if let problem = StateFilePolicy.problem(ofOpenFile: descriptor) { throw .refused(problem) }
    return try StateFile.decode(try Self.readAll(descriptor))
  }

  /// Replaces the file with `state` in one step, durably: the new file is synced before it
  /// replaces the old one, and the directory after.
  func save(_ state: StateFile) throws(StateFileError) {
    let data: Data
    do {
      data = try state.encoded()
    } catch {
      throw .unwritable("cannot encode the state: \(error)")
    }
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    let temporary = directory + "/.\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .unwritable(systemError()) }
    var failure: String?
    if fchmod(descriptor, 0o600) != 0 { failure = systemError() }
    if failure == nil { failure = Self.writeAll(data, to: descriptor) }
    if failure == nil, fsync(descriptor) != 0 { failure = systemError() }
    if close(descriptor) != 0, failure == nil { failure = systemError() }
    if failure == nil, rename(temporary, path) != 0 { failure = systemError() }
    if let failure {
      unlink(temporary)
      throw .unwritable(failure)
    }
    if let failure = Self.syncDirectory(directory) { throw .unwritable(failure) }
  }

  /// Makes a rename in `directory` durable.
  private static func syncDirectory(_ directory: String) -> String? {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return "its directory: \(systemError())" }
    defer { close(descriptor) }
    return fsync(descriptor) == 0 ? nil : "its directory: \(systemError())"
  }

  private static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
    FileDescriptorWriting.writeAll(data, to: descriptor) ? nil : systemError()
  }

  private static func readAll(_ descriptor: Int32) throws(StateFileError) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(systemError())
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }
}

/// `strerror(errno)`.
func systemError() -> String {
  String(cString: strerror(errno))
}
