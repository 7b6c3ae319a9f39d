import Foundation

/// The exclusive claim one demo-cli process holds on a state file for the life of its session,
/// so two processes never load the same file and overwrite each other's edits.
///
/// It is a `flock` on `FILE.lock` beside the file (the state file itself is replaced at every
/// save, so a lock on it would not last). The lock file holds the owner's process id, for the
/// refusal line; it stays after the run (removing it could let two processes each lock a
/// different file). The kernel drops the lock when the process ends, however it ends.
final class StateFileLock {
  private let descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Takes the lock for the state file at `path`, or says who holds it.
  static func acquire(for path: String) async throws(StateFileError) -> StateFileLock {
    let lockPath = path + ".lock"
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw errno == ELOOP
        ? .refused("its lock file \(lockPath) is a symbolic link")
        : .unwritable("its lock file \(lockPath): \(systemError())")
    }
    if let problem = StateFilePolicy.problem(ofOpenFile: descriptor) {
      close(descriptor)
      throw .refused("its lock file \(lockPath): \(problem)")
    }
    // A holder that is just ending (or a child process spawned that very moment, which holds
    // a copy of the descriptor until it execs) lets go within moments: try for up to a second.
    var locked = false
    for attempt in 1...20 {
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {  // sync-wait: none — LOCK_NB
        locked = true
        break
      }
      guard errno == EWOULDBLOCK, attempt < 20 else { break }
      try? await Task.sleep(for: .milliseconds(50))
    }
    guard locked else {
      let busy = errno == EWOULDBLOCK
      let reason = systemError()
      let holder = busy ? readHolder(descriptor) : nil
      close(descriptor)
      throw busy
        ? .refused("another demo-cli\(holder.map { " (process \($0))" } ?? "") is using it")
        : .unwritable("its lock file \(lockPath): \(reason)")
    }
    let pid = Array("\(getpid())\n".utf8)
    _ = ftruncate(descriptor, 0)
    _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    return StateFileLock(descriptor: descriptor)
  }

  /// Releases the lock (also done by the kernel when the process ends).
  func release() {
    close(descriptor)
  }

  private static func readHolder(_ descriptor: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingWhitespace)
  }
}
