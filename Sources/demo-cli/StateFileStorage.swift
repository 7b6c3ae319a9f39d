import Foundation

/// Reads and writes a state file on disk: atomically (a temporary file in the same directory,
/// then `rename`), with mode 0600.
struct StateFileStorage: Sendable {
  let path: String

  /// The saved state, or `nil` when there is no file yet (its directory must then be
  /// writable, so the first save can succeed).
  func load() throws(StateFileError) -> StateFile? {
    var status = stat()
    guard stat(path, &status) == 0 else {
      guard errno == ENOENT else { throw .unreadable(Self.systemError()) }
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      guard access(directory, W_OK | X_OK) == 0 else {
        throw .unwritable("its directory \(directory): \(Self.systemError())")
      }
      return nil
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable("not a regular file") }
    return try StateFile.decode(try readAll())
  }

  /// Replaces the file with `state` in one step.
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
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .unwritable(Self.systemError()) }
    var failure: String?
    if fchmod(descriptor, 0o600) != 0 { failure = Self.systemError() }
    if failure == nil { failure = Self.writeAll(data, to: descriptor) }
    if failure == nil, fsync(descriptor) != 0 { failure = Self.systemError() }
    if close(descriptor) != 0, failure == nil { failure = Self.systemError() }
    if failure == nil, rename(temporary, path) != 0 { failure = Self.systemError() }
    if let failure {
      unlink(temporary)
      throw .unwritable(failure)
    }
  }

  private static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
    data.withUnsafeBytes { buffer -> String? in
      var offset = 0
      while offset < buffer.count {
        guard let base = buffer.baseAddress else { return nil }
        let written = write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return systemError()
        }
        offset += written
      }
      return nil
    }
  }

  private func readAll() throws(StateFileError) -> Data {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable(Self.systemError()) }
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(Self.systemError())
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  private static func systemError() -> String {
    String(cString: strerror(errno))
  }
}
