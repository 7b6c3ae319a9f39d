import ComposableCore
import Foundation

/// `cancel_10k_ms`, `cancel_registry_left`, `cancel_10k_rss_mb` and their floors
/// (`cancel_10k_floor_ms`, `cancel_10k_floor_rss_mb`).
///
/// Times: each round runs one store repetition, then one floor repetition (the first round is
/// the warm-up), so that machine load affects both alike; medians are reported, and the
/// worst count of ids left in flight.
///
/// Resident growth: measured in fresh processes (``cancelResidentGrowthInFreshProcess(of:)``),
/// one store and one floor in each round, and the worst of each is reported. In one process a
/// repetition reuses memory that the one before it freed, whichever kind it was, and shows
/// only part of its growth (a floor run right after a store run grew 0.5 MB instead of ≈ 20).
@MainActor
func benchmarkCancel(count: Int, repetitions: Int) async throws -> CancelSummary {
  var store: [CancelRepetition] = []
  var floor: [CancelRepetition] = []
  var storeGrowth: [Double] = []
  var floorGrowth: [Double] = []
  for round in 0...repetitions {  // round 0 is the warm-up
    let storeRun = try await cancelRepetition(of: .store, count: count)
    let floorRun = try await cancelRepetition(of: .floor, count: count)
    guard round > 0 else { continue }
    store.append(storeRun)
    floor.append(floorRun)
    storeGrowth.append(try await residentGrowthInChildProcess(of: .store))
    floorGrowth.append(try await residentGrowthInChildProcess(of: .floor))
  }
  func typical(_ values: [Double]) -> Summary {
    Summary(value: median(values), repetitions: repetitions, statistic: "median")
  }
  func worst(_ values: [Double]) -> Summary {
    Summary(value: values.max() ?? 0, repetitions: repetitions, statistic: "max")
  }
  return CancelSummary(
    total: typical(store.map(\.total)),
    start: typical(store.map(\.start)),
    cancel: typical(store.map(\.cancel)),
    registryLeft: worst(store.map(\.left)),
    residentGrowth: worst(storeGrowth),
    floorTotal: typical(floor.map(\.total)),
    floorResidentGrowth: worst(floorGrowth)
  )
}

/// What a cancellation repetition runs: effects of a store, or the raw tasks of the floor.
enum CancelSubject: String {
  case store
  case floor
}

/// One repetition of `subject` with `count` effects or tasks.
@MainActor
func cancelRepetition(of subject: CancelSubject, count: Int) async throws -> CancelRepetition {
  switch subject {
  case .store: try await cancelStoreRepetition(count: count)
  case .floor: try await cancelFloorRepetition(count: count)
  }
}

/// The child side of `--cancel-resident store|floor`: in this fresh process, one small
/// warm-up (100 effects or tasks: the runtime's threads and one-time setup), then one
/// repetition of 10,000; returns that repetition's resident growth in MB.
@MainActor
func cancelResidentGrowthInFreshProcess(of subject: CancelSubject) async throws -> Double {
  _ = try await cancelRepetition(of: subject, count: 100)
  return try await cancelRepetition(of: subject, count: 10_000).residentGrowth
}

/// Runs this executable with `--cancel-resident <subject>` and reads the figure it prints.
@MainActor
func residentGrowthInChildProcess(of subject: CancelSubject) async throws -> Double {
  let process = Process()
  let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = ["--cancel-resident", subject.rawValue]
  let output = Pipe()
  process.standardOutput = output
  let status = await withCheckedContinuation { continuation in
    process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
    do {
      try process.run()
    } catch {
      process.terminationHandler = nil
      continuation.resume(returning: -1)
    }
  }
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  let figure = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
  try check(status == 0, "cancel resident (\(subject)): the child process exited with \(status)")
  guard let figure else {
    throw BenchmarkFailure("cancel resident (\(subject)): the child printed '\(text)'")
  }
  return figure
}

/// One store repetition, on a fresh store: sends `count` actions that each start an effect
/// cancellable by its own id, waits until every effect is suspended in a one-hour
/// `Task.sleep`, cancels them all by id with one action, and waits until every effect task
/// has ended. Timed from the first send to the last task's end (the two phases too).
/// Afterwards it asks the store, through the public `isEffectInFlight`, how many of the ids
/// are still in flight.
@MainActor
func cancelStoreRepetition(count: Int) async throws -> CancelRepetition {
  let gate = ArrivalGate(expected: count)
  let store = Store(initialState: Sleeper.State()) { Sleeper(gate: gate) }
  var resident = ResidentGrowth()
  var tasks: [StoreTask] = []
  tasks.reserveCapacity(count)
  let clock = ContinuousClock()
  let start = clock.now
  for index in 0..<count { tasks.append(store.send(.start(index))) }
  await gate.wait()
  let suspended = clock.now
  resident.sample()
  store.send(.stopAll(count))
  await finishAll(tasks)
  let end = clock.now
  let growth = resident.megabytes()
  let stillInFlight = (0..<count).filter { store.isEffectInFlight(SleepID(index: $0)) }.count
  try check(tasks.allSatisfy(\.isCancelled), "cancel: some effect tasks were not cancelled")
  return CancelRepetition(
    total: start.duration(to: end).milliseconds,
    start: start.duration(to: suspended).milliseconds,
    cancel: suspended.duration(to: end).milliseconds,
    left: Double(stillInFlight),
    residentGrowth: growth
  )
}

/// One floor repetition: the Swift runtime's floor for the same work with no store. `count`
/// main-actor tasks that each call a nonisolated function that sleeps for an hour (the shape
/// of a store's effect task), each cancelled directly, all awaited; timed and measured as the
/// store repetition is.
@MainActor
func cancelFloorRepetition(count: Int) async throws -> CancelRepetition {
  let gate = ArrivalGate(expected: count)
  var resident = ResidentGrowth()
  var tasks: [Task<Void, Never>] = []
  tasks.reserveCapacity(count)
  let clock = ContinuousClock()
  let start = clock.now
  for _ in 0..<count {
    tasks.append(Task { @MainActor in await sleepAnHour(arrivingAt: gate) })
  }
  await gate.wait()
  let suspended = clock.now
  resident.sample()
  for task in tasks { task.cancel() }
  await awaitAll(tasks)
  let end = clock.now
  let growth = resident.megabytes()
  try check(tasks.allSatisfy(\.isCancelled), "cancel floor: some tasks were not cancelled")
  return CancelRepetition(
    total: start.duration(to: end).milliseconds,
    start: start.duration(to: suspended).milliseconds,
    cancel: suspended.duration(to: end).milliseconds,
    left: 0,
    residentGrowth: growth
  )
}

nonisolated private func sleepAnHour(arrivingAt gate: ArrivalGate) async {
  gate.arrive()
  try? await Task.sleep(for: .seconds(3_600))
}

struct CancelRepetition {
  let total: Double
  let start: Double
  let cancel: Double
  let left: Double
  let residentGrowth: Double
}

struct CancelSummary {
  let total: Summary
  let start: Summary
  let cancel: Summary
  let registryLeft: Summary
  let residentGrowth: Summary
  let floorTotal: Summary
  let floorResidentGrowth: Summary
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
