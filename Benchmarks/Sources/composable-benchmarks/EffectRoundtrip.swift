import ComposableCore

/// The `effect` group: effect round trips against the runtime's floor for the same hops.
struct EffectFigures {
  /// `effect_roundtrip_per_s` and `effect_roundtrip_floor_per_s`.
  let roundtrip: Summary
  let roundtripFloor: Summary
  /// `effect_roundtrip_latency_ns` and `effect_roundtrip_latency_floor_ns`.
  let latency: Summary
  let latencyFloor: Summary
}

/// Measures the `effect` group. Each pair (store, floor) is interleaved: every round runs one
/// repetition of each, so a machine that changes speed moves both alike.
///
/// Throughput: `effects` `.run` effects that each send one action back, started from as many
/// sends, then all awaited; an effect is complete when its action was reduced and its task
/// ended. Its floor: main-actor tasks that each call a nonisolated function which awaits one
/// main-actor call (as an effect's task runs its operation off the main actor and `send` hops
/// back).
///
/// Latency: `roundTrips` sequential `await store.send(.start).finish()` (the effect sends its
/// action back), against a detached task that hops to the main actor, changes a model and
/// returns, awaited from the main actor.
@MainActor
func benchmarkEffects(effects: Int, roundTrips: Int, repetitions: Int) async throws
  -> EffectFigures
{
  let throughput = try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      { try await effectRoundtripRepetition(effects: effects) },
      { try await effectRoundtripFloorRepetition(effects: effects) },
    ])
  let latency = try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      { try await effectLatencyRepetition(roundTrips: roundTrips) },
      { try await effectLatencyFloorRepetition(roundTrips: roundTrips) },
    ])
  return EffectFigures(
    roundtrip: throughput[0], roundtripFloor: throughput[1], latency: latency[0],
    latencyFloor: latency[1])
}

@MainActor
private func effectRoundtripRepetition(effects: Int) async throws -> Double {
  let store = Store(initialState: Echo.State()) { Echo() }
  var tasks: [StoreTask] = []
  tasks.reserveCapacity(effects)
  let elapsed = await time {
    for _ in 0..<effects { tasks.append(store.send(.start)) }
    await finishAll(tasks)
  }
  try check(
    store.completed == effects, "round trips: \(store.completed) of \(effects) actions came back")
  return Double(effects) / elapsed.seconds
}

@MainActor
private func effectRoundtripFloorRepetition(effects: Int) async throws -> Double {
  let counter = MainActorCounter()
  var tasks: [Task<Void, Never>] = []
  tasks.reserveCapacity(effects)
  let elapsed = await time {
    for _ in 0..<effects { tasks.append(Task { @MainActor in await answer(to: counter) }) }
    await awaitAll(tasks)
  }
  try check(counter.count == effects, "round-trip floor: \(counter.count) of \(effects) came back")
  return Double(effects) / elapsed.seconds
}

@MainActor
private func effectLatencyRepetition(roundTrips: Int) async throws -> Double {
  let store = Store(initialState: Echo.State()) { Echo() }
  let elapsed = await time {
    for _ in 0..<roundTrips { await store.send(.start).finish() }
  }
  try check(
    store.completed == roundTrips, "latency: \(store.completed) of \(roundTrips) came back")
  return elapsed.nanoseconds / Double(roundTrips)
}

@MainActor
private func effectLatencyFloorRepetition(roundTrips: Int) async throws -> Double {
  let counter = MainActorCounter()
  let elapsed = await time {
    for _ in 0..<roundTrips {
      await Task.detached { await counter.increment() }.value
    }
  }
  try check(counter.count == roundTrips, "latency floor: \(counter.count) of \(roundTrips)")
  return elapsed.nanoseconds / Double(roundTrips)
}

@MainActor
private final class MainActorCounter {
  var count = 0
  func increment() { count += 1 }
}

nonisolated private func answer(to counter: MainActorCounter) async {
  await counter.increment()
}

/// Starts an effect that answers with one action.
struct Echo: Reducer {
  struct State: Equatable {
    var started = 0
    var completed = 0
  }

  enum Action: Equatable, Sendable {
    case start
    case answered
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.started += 1
      return .run { send in await send(.answered) }
    case .answered:
      state.completed += 1
      return .none
    }
  }
}
