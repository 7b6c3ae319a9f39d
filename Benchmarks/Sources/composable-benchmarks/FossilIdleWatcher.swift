import ComposableCore
import ComposableTesting
import ComposableWorkspace
import FossilWorkspace
import Foundation
import LoopbackHTTPServer

/// `fossil_idle_looks_first_min` and `fossil_idle_looks_per_min`: the requests one idle
/// client's `FossilHeadWatcher` (the defaults: 2 s after a change, up to 30 s while nothing
/// changes, jitter) makes of a server whose branch never moves, counted by the server: a
/// loopback server standing in for Fossil's `/json/artifact` (every request it gets is one a
/// `fossil server` would fork a process for). Time is a `TestClock` walked one second at a
/// time through `minutes` minutes, each step waiting (in real time, bounded) until the watcher
/// sleeps again; the first minute's count is the worst, the later minutes' mean the steady
/// rate.
@MainActor
func benchmarkIdleWatcher(minutes: Int) async throws -> (firstMinute: Summary, perMinute: Summary) {
  let clock = TestClock()
  let start = clock.now
  let looks = LockIsolated<[Int]>([])
  let head = String(repeating: "ab", count: 32)
  let server = try LoopbackHTTPServer { request in
    guard request.path == "/json/artifact" else { return .status(404) }
    let minute = Int(start.duration(to: clock.now).seconds / 60)
    looks.withValue { $0.append(minute) }
    return .json(#"{"payload":{"uuid":"\#(head)","type":"checkin"}}"#)
  }
  let watcher = FossilHeadWatcher(session: FossilSession(baseURL: server.baseURL))
  let updates = withDependencies {
    $0.clock = clock
  } operation: {
    watcher.updates(of: "trunk")
  }
  let failures = LockIsolated<[String]>([])
  let reading = Task {
    for await update in updates {
      if case .waiting(_, _, let reason) = update { failures.withValue { $0.append(reason) } }
    }
  }
  defer { reading.cancel() }
  for _ in 0..<(minutes * 60) {
    try await sleeping(clock)
    await clock.advance(by: .seconds(1))
  }
  try await sleeping(clock)
  await server.stop()
  let counted = looks.current
  try check(failures.current.isEmpty, "fossil idle watcher: looks failed: \(failures.current)")
  try check(!counted.isEmpty, "fossil idle watcher: no look at all")
  let perMinute = (0..<minutes).map { minute in Double(counted.filter { $0 == minute }.count) }
  let steady = perMinute.dropFirst()
  return (
    Summary(value: perMinute[0], repetitions: 1, statistic: "count"),
    Summary(
      value: steady.reduce(0, +) / Double(max(1, steady.count)), repetitions: steady.count,
      statistic: "mean")
  )
}

/// Waits (up to 5 s of real time) until the watcher sleeps on `clock` again.
private func sleeping(_ clock: TestClock) async throws {
  let deadline = ContinuousClock.now.advanced(by: .seconds(5))
  while clock.sleeperCount == 0 {
    guard ContinuousClock.now < deadline else {
      throw BenchmarkFailure("fossil idle watcher: it did not sleep again within 5 s")
    }
    try await Task.sleep(for: .milliseconds(1))
  }
}
