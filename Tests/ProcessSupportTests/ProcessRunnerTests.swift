import Foundation
import ProcessSupport
import ProcessTestSupport
import Testing

@Suite("Process runner")
struct ProcessRunnerTests {
  let shell = URL(fileURLWithPath: "/bin/sh")

  @Test func collectsStatusAndBothOutputs() async throws {
    let result = try await ProcessRunner().run(
      shell, arguments: ["-c", "echo out; echo err >&2; exit 3"])
    #expect(result.status == 3)
    #expect(result.outputText == "out\n")
    #expect(result.errorText == "err\n")
  }

  @Test func drainsLargeOutputOnBothPipesWithoutDeadlock() async throws {
    let result = try await ProcessRunner().run(
      shell, arguments: ["-c", "head -c 8000000 /dev/zero; head -c 6000000 /dev/zero >&2"]
    )
    #expect(result.status == 0)
    #expect(result.standardOutput.count == 8_000_000)
    #expect(result.standardError.count == 6_000_000)
  }

  @Test func passesInputEnvironmentAndDirectory() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try await ProcessRunner().run(
      shell, arguments: ["-c", "cat; printf '%s|' \"$GREETING\"; pwd"],
      environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"],
      currentDirectory: directory.url, input: Data("piped|".utf8)
    )
    #expect(result.outputText == "piped|hello|\(directory.url.resolvingSymlinksInPath().path)\n")
  }

  @Test func aMissingExecutableIsALaunchError() async throws {
    await #expect(throws: ProcessLaunchError.self) {
      try await ProcessRunner().run(URL(fileURLWithPath: "/nonexistent/tool"), arguments: [])
    }
  }

  @Test func cancellationTerminatesTheProcess() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (pidFile, done) = (
      directory.url.appendingPathComponent("pid"), directory.url.appendingPathComponent("done")
    )
    let task = Task {
      try await ProcessRunner().run(
        shell,
        arguments: ["-c", "echo $$ > \"$0\"; sleep 30; touch \"$1\"", pidFile.path, done.path])
    }
    let pid = try await waitForPID(in: pidFile)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    // Ended by the signal (the child did not inherit blocked signals), not by running out.
    #expect(!isRunning(pid))
    #expect(!FileManager.default.fileExists(atPath: done.path))
  }

  @Test func aChildIgnoringSIGTERMIsKilledAfterTheGracePeriod() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (pidFile, done) = (
      directory.url.appendingPathComponent("pid"), directory.url.appendingPathComponent("done")
    )
    let task = Task {
      try await ProcessRunner().run(
        shell,
        arguments: [
          "-c", "echo $$ > \"$0\"; trap '' TERM; sleep 30; touch \"$1\"", pidFile.path, done.path,
        ])
    }
    let pid = try await waitForPID(in: pidFile)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(!isRunning(pid))
    #expect(!FileManager.default.fileExists(atPath: done.path))
  }

  /// Waits (scheduler round trips, no clock) until the child wrote its pid.
  private func waitForPID(in file: URL) async throws -> pid_t {
    for _ in 0..<1_000_000 {
      if let text = try? String(contentsOf: file, encoding: .utf8),
        let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        return pid
      }
      await Task.yield()
    }
    throw CancellationError()
  }

  /// Whether a process with `pid` still exists.
  private func isRunning(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0
  }

  @Test func aTaskCancelledBeforeStartingNeverRuns() async throws {
    let marker = try TemporaryDirectory()
    defer { marker.remove() }
    let file = marker.url.appendingPathComponent("ran")
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await ProcessRunner().run(shell, arguments: ["-c", "touch '\(file.path)'"])
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @MainActor
  @Test func manyConcurrentRunsFromTheMainActor() async throws {
    let results = try await withThrowingTaskGroup(of: Int32.self) { group in
      for index in 0..<24 {
        group.addTask {
          try await ProcessRunner().run(self.shell, arguments: ["-c", "exit \(index % 3)"]).status
        }
      }
      var statuses: [Int32] = []
      for try await status in group { statuses.append(status) }
      return statuses
    }
    #expect(results.sorted() == (0..<24).map { Int32($0 % 3) }.sorted())
  }
}
