import Foundation
import WorkspaceJournal

/// Reads and writes a state file on disk: atomically (a temporary file in the same directory,
/// then `rename`, then the directory synced: ``DurableFile``), with mode 0600.
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

  /// Replaces the file with `state` in one step, durably (``DurableFile``: the new file is
  /// synced before it replaces the old one, and the directory after), with mode 0600.
  func save(_ state: StateFile) throws(StateFileError) {
    let data: Data
    do {
      data = try state.encoded()
    } catch {
      throw .unwritable("cannot encode the state: \(error)")
    }
    do {
      try DurableFile.replace(contentsOf: URL(fileURLWithPath: path), with: data)
    } catch let error as DurableFileError {
      throw .unwritable(error.reason)
    } catch {
      throw .unwritable("\(error)")
    }
  }

  /// Removes the temporary files that saves of this file left in processes killed while they
  /// wrote (call it with the file's lock held).
  func sweepTemporaries() {
    DurableFile.sweepTemporaries(of: URL(fileURLWithPath: path))
  }

  private static func readAll(_ descriptor: Int32) throws(StateFileError) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      // sync-wait: a regular file — its read never waits for another thread
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
