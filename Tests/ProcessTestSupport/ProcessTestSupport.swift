import Foundation
import ProcessSupport

/// Installs an executable script without this process ever holding it open for writing: a
/// `sh` child writes it. (A script this multi-threaded process wrote itself can fail to start
/// with "Text file busy" when another test's child, spawned at that moment, still holds a copy
/// of the writing descriptor.)
public func installExecutable(_ script: String, at file: URL) async throws {
  let result = try await ProcessRunner().run(
    URL(fileURLWithPath: "/bin/sh"),
    arguments: ["-c", #"cat > "$1" && chmod 755 "$1""#, "sh", file.path],
    input: Data(script.utf8))
  guard result.status == 0 else {
    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
  }
}

/// Runs git, isolated from the machine's configuration, and answers its standard output.
/// Asynchronous, so a test waiting for git never blocks the main actor other tests share.
@discardableResult
public func runGit(_ arguments: [String]) async throws -> String {
  var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
  environment["GIT_CONFIG_NOSYSTEM"] = "1"
  environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
  let result = try await ProcessRunner().run(
    URL(fileURLWithPath: "/usr/bin/env"), arguments: ["git"] + arguments,
    environment: environment)
  guard result.status == 0 else {
    throw GitCommandFailed(command: (["git"] + arguments).joined(separator: " "))
  }
  return result.outputText
}

/// A git command run by a test failed.
public struct GitCommandFailed: Error, CustomStringConvertible {
  public var command: String
  public var description: String { "\(command) failed" }
}

/// A temporary directory removed when the test is done with it.
public final class TemporaryDirectory: Sendable {
  public let url: URL

  public init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("workspace-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }

  /// A fresh subdirectory path (not created).
  public func child(_ name: String) -> URL {
    url.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))", isDirectory: true)
  }
}
