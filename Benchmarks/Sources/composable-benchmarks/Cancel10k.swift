import ComposableCore

/// `cancel_10k_ms`, `cancel_registry_left`, `cancel_10k_rss_mb`.
///
/// Each repetition, on a fresh store: sends `count` actions that each start an effect
/// cancellable by its own id, waits until every effect is suspended in a one-hour
/// `Task.sleep`, cancels them all by id with one action, and waits until every effect task
/// has ended. Timed from the first send to the last task's end (the two phases are reported
/// too). Afterwards it asks the store, through the public `isEffectInFlight`, how many of the
/// ids are still in flight. Resident growth is the peak (VmHWM, reset before the run, and
/// VmRSS while all effects are suspended) minus VmRSS before the run; the worst repetition is
/// reported, since later repetitions reuse memory the earlier ones freed and would hide it.
@MainActor
func benchmarkCancel(count: Int, repetitions: Int) async throws -> CancelSummary {
  var totals: [Double] = []
  var starts: [Double] = []
  var cancels: [Double] = []
  var left: [Double] = []
  var growth: [Double] = []
  for repetition in 0...repetitions {  // repetition 0 is the warm-up
    let gate = ArrivalGate(expected: count)
    let store = Store(initialState: Sleeper.State()) { Sleeper(gate: gate) }
    let residentBefore = ResidentMemory.current ?? 0
    ResidentMemory.resetPeak()
    var tasks: [StoreTask] = []
    tasks.reserveCapacity(count)
    let clock = ContinuousClock()
    let start = clock.now
    for index in 0..<count { tasks.append(store.send(.start(index))) }
    await gate.wait()
    let suspended = clock.now
    let residentSuspended = ResidentMemory.current ?? 0
    store.send(.stopAll(count))
    await finishAll(tasks)
    let end = clock.now
    let residentPeak = max(ResidentMemory.peak ?? 0, residentSuspended)
    let stillInFlight = (0..<count).filter { store.isEffectInFlight(SleepID(index: $0)) }.count
    try check(tasks.allSatisfy(\.isCancelled), "cancel: some effect tasks were not cancelled")
    guard repetition > 0 else { continue }
    totals.append(start.duration(to: end).milliseconds)
    starts.append(start.duration(to: suspended).milliseconds)
    cancels.append(suspended.duration(to: end).milliseconds)
    left.append(Double(stillInFlight))
    growth.append(Double(residentPeak - residentBefore) / 1_048_576)
  }
  return CancelSummary(
    total: Summary(value: median(totals), repetitions: repetitions, statistic: "median"),
    start: Summary(value: median(starts), repetitions: repetitions, statistic: "median"),
    cancel: Summary(value: median(cancels), repetitions: repetitions, statistic: "median"),
    registryLeft: Summary(value: left.max() ?? 0, repetitions: repetitions, statistic: "max"),
    residentGrowth: Summary(value: growth.max() ?? 0, repetitions: repetitions, statistic: "max")
  )
}

/// `cancel_10k_floor_ms` (extra): the Swift runtime's floor for the same work with no store:
/// `count` main-actor tasks that each call a nonisolated function that sleeps for an hour
/// (the shape of a store's effect task), each cancelled directly, all awaited.
@MainActor
func benchmarkCancelFloor(count: Int, repetitions: Int) async throws -> Summary {
  try await measure(repetitions: repetitions) {
    let gate = ArrivalGate(expected: count)
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(count)
    let elapsed = await time {
      for _ in 0..<count {
        tasks.append(Task { @MainActor in await sleepAnHour(arrivingAt: gate) })
      }
      await gate.wait()
      for task in tasks { task.cancel() }
      await awaitAll(tasks)
    }
    try check(tasks.allSatisfy(\.isCancelled), "cancel floor: some tasks were not cancelled")
    return elapsed.milliseconds
  }
}

nonisolated private func sleepAnHour(arrivingAt gate: ArrivalGate) async {
  gate.arrive()
  try? await Task.sleep(for: .seconds(3_600))
}

struct CancelSummary {
  let total: Summary
  let start: Summary
  let cancel: Summary
  let registryLeft: Summary
  let residentGrowth: Summary
}

struct SleepID: Hashable, Sendable {
  let index: Int
}

/// Starts effects that sleep for an hour; cancels them by id.
struct Sleeper: Reducer {
  struct State: Equatable {
    var started = 0
  }

  enum Action: Equatable, Sendable {
    case start(Int)
    case stopAll(Int)
  }

  let gate: ArrivalGate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let index):
      state.started += 1
      let gate = gate
      return .run { _ in
        gate.arrive()
        try await Task.sleep(for: .seconds(3_600))
      }
      .cancellable(id: SleepID(index: index))
    case .stopAll(let count):
      return .cancel(ids: (0..<count).map { SleepID(index: $0) })
    }
  }
}

/// Opens when `expected` arrivals have happened.
final class ArrivalGate: Sendable {
  private struct Progress {
    var arrived = 0
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let expected: Int
  private let progress = LockIsolated(Progress())

  init(expected: Int) {
    self.expected = expected
  }

  func arrive() {
    let waiter = progress.withValue { progress -> CheckedContinuation<Void, Never>? in
      progress.arrived += 1
      guard progress.arrived == expected else { return nil }
      defer { progress.waiter = nil }
      return progress.waiter
    }
    waiter?.resume()
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = progress.withValue { progress -> Bool in
        if progress.arrived >= expected { return true }
        progress.waiter = continuation
        return false
      }
      if isOpen { continuation.resume() }
    }
  }
}
