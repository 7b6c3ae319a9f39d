import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replacing a file's contents so that a crash at any moment leaves either the old contents or
/// the new, never a mix, and never a file others may read.
///
/// The new contents go to a fresh temporary file beside the target
/// (`.<name>.<pid>.<random>.tmp`, mode `permissions`, created exclusively, never through a
/// symbolic link), which is synced, renamed over the target, and then the folder is synced so
/// the rename itself survives a power loss. A temporary file left by a process killed while it
/// wrote is removed by ``sweepTemporaries(of:)`` once that process is gone.
///
/// ```swift
/// try DurableFile.replace(contentsOf: stateFile, with: encoded)
/// ```
public enum DurableFile {
  /// Replaces the contents of the file at `url` with `data`, durably; creates it when missing.
  /// When it throws, the file is as it was and no temporary file is left. Something other than
  /// a regular file at `url` (a symbolic link, a folder) is refused, never replaced.
  public static func replace(
    contentsOf url: URL, with data: Data, permissions: mode_t = 0o600
  ) throws {
    var existing = stat()
    if lstat(url.path, &existing) == 0, existing.st_mode & S_IFMT != S_IFREG {
      throw DurableFileError(url, reason: "it is not a regular file (a link or a folder)")
    }
    let directory = url.deletingLastPathComponent().path
    let temporary = directory + "/" + temporaryName(of: url, pid: getpid())
    let descriptor = open(
      temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
    guard descriptor >= 0 else { throw DurableFileError(url, "cannot create \(temporary)") }
    var failure: DurableFileError?
    // The mode asked for, whatever the umask took away.
    if fchmod(descriptor, permissions) != 0 {
      failure = DurableFileError(url, "cannot set its permissions")
    }
    if failure == nil {
      do {
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
      } catch {
        failure = DurableFileError(url, reason: "cannot write it: \(error.localizedDescription)")
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = DurableFileError(url, "cannot sync it") }
    if close(descriptor) != 0, failure == nil { failure = DurableFileError(url, "cannot close it") }
    if failure == nil, rename(temporary, url.path) != 0 {
      failure = DurableFileError(url, "cannot rename it into place")
    }
    if let failure {
      unlink(temporary)
      throw failure
    }
    try syncFolder(directory, of: url)
  }

  /// The contents of the file at `url`, or `nil` when there is none. A symbolic link, or
  /// anything but a regular file, is an error (never followed).
  public static func contents(of url: URL) throws -> Data? {
    let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      throw DurableFileError(url, errno == ELOOP ? "it is a symbolic link" : "cannot open it")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw DurableFileError(url, "it is not a regular file")
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      // sync-wait: a regular file — its read never waits for another thread
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw DurableFileError(url, "cannot read it") }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// Removes the temporary files that replacing `url` left behind in processes that were
  /// killed while writing (those whose process is gone). Answers how many it removed.
  @discardableResult
  public static func sweepTemporaries(of url: URL) -> Int {
    let directory = url.deletingLastPathComponent()
    let prefix = "." + url.lastPathComponent + "."
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    var removed = 0
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let parts = name.dropFirst(prefix.count).split(separator: ".")
      guard parts.count == 3, let pid = pid_t(parts[0]), pid != getpid(),
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      if unlink(directory.appendingPathComponent(name).path) == 0 { removed += 1 }
    }
    return removed
  }

  /// `.<name>.<pid>.<random>.tmp`.
  static func temporaryName(of url: URL, pid: pid_t) -> String {
    let random = UUID().uuidString.replacingOccurrences(of: "-", with: "")
    return ".\(url.lastPathComponent).\(pid).\(random).tmp"
  }

  private static func syncFolder(_ directory: String, of url: URL) throws {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw DurableFileError(url, "cannot open its folder") }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw DurableFileError(url, "cannot sync its folder") }
  }
}

/// A file could not be read or replaced; the message names the file and the failing step with
/// the system's reason.
public struct DurableFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file.
  public var path: String
  /// What failed, and why.
  public var reason: String

  /// `step` failed for the reason `errno` holds now.
  init(_ url: URL, _ step: String) {
    self.init(url, reason: "\(step): \(String(cString: strerror(errno)))")
  }

  init(_ url: URL, reason: String) {
    self.path = url.path
    self.reason = reason
  }

  public var description: String { "\(path): \(reason)" }
}
