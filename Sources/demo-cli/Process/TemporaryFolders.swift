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

  /// A new private folder `<temporary directory>/<prefix>XXXXXX`, removed at the end of the run.
  static func make(prefix: String) throws -> URL {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + "XXXXXX")
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
    folders.withValue { $0.removeAll { $0 == folder } }
    try? FileManager.default.removeItem(at: folder)
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
        removeAll()
        Foundation.signal(signal, SIG_DFL)
        kill(getpid(), signal)
      }
      source.resume()
      sources.withValue { $0.append(source) }
    }
  }
}

/// A private temporary folder could not be made.
struct TemporaryFolderError: Error, CustomStringConvertible {
  var reason: String
  var description: String { "cannot make a private temporary folder: \(reason)" }
}
