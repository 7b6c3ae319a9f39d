import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The local clone's lock across processes: two apps (or two runs of one) on the same root
/// share its clone, and fossil meets its own "database is locked" when both work on it at once.
/// An advisory `flock` on `<clone>.lock` makes them take turns; within a process a
/// `SerialGate` already does. The kernel drops the lock when its holder exits, however it
/// ends.
///
/// ```swift
/// try await CloneLock(clone: clone.file).holding { try await clone.pull() }
/// ```
struct CloneLock: Sendable {
  /// The clone's file (the lock is the file beside it, `<clone>.lock`).
  let clone: URL
  /// The longest it waits for another process to let go.
  var patience: Duration = .seconds(300)

  /// Runs `body` holding the lock, waiting (polling every 20 ms, up to ``patience``) while
  /// another process holds it.
  ///
  /// - Throws: ``FossilSyncError/cloneBusy(_:)`` when the lock file cannot be opened, or
  ///   another process held it for all of ``patience``.
  func holding<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    let folder = clone.deletingLastPathComponent()
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let path = clone.path + ".lock"
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw FossilSyncError.cloneBusy("cannot open the clone's lock \(path): errno \(errno)")
    }
    defer { close(descriptor) }  // closing it releases the lock too
    let deadline = ContinuousClock.now.advanced(by: patience)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {  // sync-wait: none — LOCK_NB
      guard errno == EWOULDBLOCK || errno == EINTR else {
        throw FossilSyncError.cloneBusy("cannot lock the clone \(path): errno \(errno)")
      }
      guard ContinuousClock.now < deadline else {
        throw FossilSyncError.cloneBusy(
          "another process has held the clone \(clone.lastPathComponent) for \(patience)")
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    return try await body()
  }
}
