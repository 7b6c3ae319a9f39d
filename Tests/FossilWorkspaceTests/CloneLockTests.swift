import ComposableCore
import Foundation
import HTTPTestSupport
import Testing

@testable import FossilWorkspace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Two processes on one root take turns on the clone: the lock another one holds is waited
/// for, and a lock held too long is an error, never a hang.
@Suite("Fossil clone lock")
struct CloneLockTests {
  @Test func anOperationWaitsWhileAnotherProcessHoldsTheClone() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clone = folder.appendingPathComponent("clone.fossil")
    // Another open file description stands for another process: flock locks conflict.
    let other = try Self.lock(clone)
    let ran = LockIsolated(false)
    let operation = Task {
      try await CloneLock(clone: clone).holding {
        ran.setValue(true)
        return "ran"
      }
    }
    try await Task.sleep(for: .milliseconds(200))
    #expect(!ran.current, "it ran while the other process held the clone")
    flock(other, LOCK_UN)
    close(other)
    #expect(
      try await within(15, "the operation after the lock was let go") {
        try await operation.value
      } == "ran")
  }

  @Test func aCloneHeldLongerThanThePatienceIsAnError() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clone = folder.appendingPathComponent("clone.fossil")
    let other = try Self.lock(clone)
    defer { close(other) }
    let error = await #expect(throws: FossilSyncError.self) {
      try await CloneLock(clone: clone, patience: .milliseconds(100)).holding { () }
    }
    #expect(error?.description.contains("another process has held the clone") == true)
  }

  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clone-lock-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Takes `clone`'s lock through a descriptor of its own.
  static func lock(_ clone: URL) throws -> Int32 {
    let descriptor = open(clone.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
    return descriptor
  }
}
