import ComposableCore
import Dispatch
import Foundation
import ProcessSupport

/// The folders a run makes for itself: private (mode 0700, made by `mkdtemp`) and removed when
/// the run ends — at its normal end, and when SIGINT, SIGTERM or SIGHUP interrupts it (its
/// children are ended first, then the signal is raised again, so the exit status still says
/// what happened).
enum TemporaryFolders {
  private static let folders = LockIsolated<[URL]>([])
  private static let sources = LockIsolated<[any DispatchSourceSignal]>([])
  /// The signal being handled, once one arrived: from then on only its handler removes
  /// folders and ends the process.
  private static let interruption = LockIsolated<Int32?>(nil)

  /// A new private folder `<temporary directory>/<prefix><pid>-XXXXXX`, removed at the end of
  /// the run. Folders of the same prefix left by runs that were killed (their pid is gone) are
  /// removed first.
  static func make(prefix: String) throws -> URL {
    sweepAbandoned(prefix: prefix)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)\(getpid())-XXXXXX")
    var template = Array(path.path.utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
    }
    guard let made else { throw TemporaryFolderError(reason: systemError()) }
    let url = URL(fileURLWithPath: made, isDirectory: true)
    folders.withValue { $0.append(url) }
    return url
  }

  /// Removes `folder`, one this run made (unless an interruption's handler is doing it).
  static func remove(_ folder: URL) {
    guard interruption.current == nil else { return }
    try? FileManager.default.removeItem(at: folder)
    // Off the list only once it is gone: a signal meanwhile still finds it there.
    folders.withValue { $0.removeAll { $0 == folder } }
  }

  /// Ends the process with `status` — or, when a signal is being handled, lets its handler end
  /// it (so the folders are removed and the exit status is the signal's), waiting at most ten
  /// seconds for it.
  static func exit(_ status: Int32) -> Never {
    // sync-wait: the thread ending the process, while a signal's handler ends it; ≤ 10 s
    for _ in 0..<1_000 where interruption.current != nil { usleep(10_000) }
    Foundation.exit(status)
  }

  /// Removes every folder made so far.
  static func removeAll() {
    for folder in folders.withValue({ folders in
      defer { folders = [] }
      return folders
    }) {
      try? FileManager.default.removeItem(at: folder)
    }
  }

  /// Removes the folders when the process is interrupted. Call once, early.
  static func removeOnInterruption() {
    for signal in [SIGINT, SIGTERM, SIGHUP] {
      Foundation.signal(signal, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
      source.setEventHandler {
        guard
          interruption.withValue({ handled in
            defer { handled = handled ?? signal }
            return handled == nil
          })
        else { return }
        // Children first, so none is still writing into a folder being removed.
        ProcessRunner.terminateAllChildren()
        // This process's own tasks may still write until the signal ends it: a sweeper that
        // outlives it removes whatever they left, once it is gone.
        sweepAfterExit(folders.current)
        removeAll()
        Foundation.signal(signal, SIG_DFL)
        kill(getpid(), signal)
      }
      source.resume()
      sources.withValue { $0.append(source) }
    }
  }
}

extension TemporaryFolders {
  /// Removes `<prefix><pid>-…` folders in the temporary directory whose run has ended (a
  /// SIGKILL leaves its folder: nothing runs to remove it): only this user's own directories,
  /// never a symbolic link, never one of a live process.
  fileprivate static func sweepAbandoned(prefix: String) {
    let temporary = FileManager.default.temporaryDirectory
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
    for name in names where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0,
        pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      let folder = temporary.appendingPathComponent(name)
      var info = stat()
      guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
        info.st_uid == getuid()
      else { continue }
      try? FileManager.default.removeItem(at: folder)
    }
  }

  /// Starts `/bin/sh` in a process group of its own (no signal to this one's reaches it),
  /// silent, to remove `folders` once this process has ended.
  fileprivate static func sweepAfterExit(_ folders: [URL]) {
    guard !folders.isEmpty else { return }
    let script = #"while kill -0 "$0" 2>/dev/null; do sleep 0.05; done; rm -rf -- "$@""#
    let arguments = ["/bin/sh", "-c", script, String(getpid())] + folders.map(\.path)
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    for descriptor in Int32(0)...2 {
      posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
    posix_spawnattr_setpgroup(&attributes, 0)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    _ = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
  }
}

/// A private temporary folder could not be made.
struct TemporaryFolderError: Error, CustomStringConvertible {
  var reason: String
  var description: String { "cannot make a private temporary folder: \(reason)" }
}
