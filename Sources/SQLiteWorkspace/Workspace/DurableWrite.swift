import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing a new file so that a crash leaves either no file or the whole file under its name.
enum DurableWrite {
  /// Writes `data` to a temporary file beside `url`, syncs it, renames it to `url` and syncs
  /// the folder. Throws ``SQLiteWorkspaceError/io(_:)`` naming the step that failed; no
  /// temporary file is left then.
  static func write(_ data: Data, to url: URL) throws {
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial")
    unlink(temporary.path)
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure("cannot create", temporary) }
    var problem: SQLiteWorkspaceError?
    do {
      try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
    } catch {
      problem = .io("cannot write \(temporary.path): \(error.localizedDescription)")
    }
    if problem == nil, fsync(descriptor) != 0 { problem = failure("cannot sync", temporary) }
    if close(descriptor) != 0, problem == nil { problem = failure("cannot close", temporary) }
    if problem == nil, rename(temporary.path, url.path) != 0 {
      problem = failure("cannot rename into place", url)
    }
    if let problem {
      unlink(temporary.path)
      throw problem
    }
    syncFolder(of: url)
  }

  /// Syncs the folder holding `url`, so a rename or removal in it survives a power loss.
  static func syncFolder(of url: URL) {
    let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
    guard folder >= 0 else { return }
    fsync(folder)
    close(folder)
  }

  private static func failure(_ what: String, _ url: URL) -> SQLiteWorkspaceError {
    .io("\(what) \(url.path): \(String(cString: strerror(errno)))")
  }
}
