import ComposableCore

// Warm-up, repetitions and medians. Every figure is one of these summaries.

/// The summary of a figure's repetitions.
struct Summary: Sendable {
  /// The reported value: the median of the repetitions (or, for a must-be-zero count, the
  /// worst repetition; see ``statistic``).
  let value: Double
  /// How many measured repetitions (after the warm-up) the value summarises.
  let repetitions: Int
  /// How the repetitions were combined: `median`, `max`, or `ratio` of two medians.
  let statistic: String
}

/// Runs `body` `warmups` times unmeasured, then `repetitions` times; returns the median of the
/// values the measured runs return.
@MainActor
func measure(
  warmups: Int = 1,
  repetitions: Int,
  _ body: () async throws -> Double
) async rethrows -> Summary {
  for _ in 0..<warmups { _ = try await body() }
  var values: [Double] = []
  values.reserveCapacity(repetitions)
  for _ in 0..<repetitions { values.append(try await body()) }
  return Summary(value: median(values), repetitions: repetitions, statistic: "median")
}

/// Measures several bodies whose figures are compared with each other, interleaved: each
/// round runs every body once, so drift in the machine's load hits all of them alike. The
/// first `warmups` rounds are discarded; returns one median per body, in order.
@MainActor
func measureInterleaved(
  warmups: Int = 1,
  repetitions: Int,
  _ bodies: [@MainActor () throws -> Double]
) throws -> [Summary] {
  var values = Array(repeating: [Double](), count: bodies.count)
  for round in 0..<(warmups + repetitions) {
    for (index, body) in bodies.enumerated() {
      let value = try body()
      if round >= warmups { values[index].append(value) }
    }
  }
  return values.map { Summary(value: median($0), repetitions: repetitions, statistic: "median") }
}

/// `measureInterleaved` for asynchronous bodies (the `git` group's client and plain-git
/// repetitions): each round runs every body once, in order; the first `warmups` rounds are
/// discarded; returns one median per body, in order.
@MainActor
func measureInterleavedAsync(
  warmups: Int = 1,
  repetitions: Int,
  _ bodies: [@MainActor () async throws -> Double]
) async throws -> [Summary] {
  var values = Array(repeating: [Double](), count: bodies.count)
  for round in 0..<(warmups + repetitions) {
    for (index, body) in bodies.enumerated() {
      let value = try await body()
      if round >= warmups { values[index].append(value) }
    }
  }
  return values.map { Summary(value: median($0), repetitions: repetitions, statistic: "median") }
}

/// The ratio of two summaries' values.
func ratio(_ numerator: Summary, _ denominator: Summary) -> Summary {
  Summary(
    value: numerator.value / denominator.value,
    repetitions: min(numerator.repetitions, denominator.repetitions),
    statistic: "ratio"
  )
}

/// What each of `levels` levels adds: the difference of two medians, divided by `levels`.
func perLevel(_ total: Summary, _ base: Summary, levels: Int) -> Summary {
  Summary(
    value: (total.value - base.value) / Double(levels),
    repetitions: min(total.repetitions, base.repetitions),
    statistic: "difference"
  )
}

func median(_ values: [Double]) -> Double {
  precondition(!values.isEmpty, "median of no values")
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// Times `body`, which performs `operations` operations, and returns nanoseconds per operation.
@MainActor
func nanosecondsPerOperation(_ operations: Int, _ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  try body()
  return start.duration(to: clock.now).nanoseconds / Double(operations)
}

/// Waits for every task to finish. Nonisolated on purpose: awaited from the main actor it hops
/// to the global executor once, instead of twice per task as `await task.finish()` in a
/// main-actor loop would (that waiting cost would swamp what the effect benchmarks measure).
nonisolated func finishAll(_ tasks: [StoreTask]) async {
  for task in tasks { await task.finish() }
}

/// `finishAll` for plain tasks (the runtime floors).
nonisolated func awaitAll(_ tasks: [Task<Void, Never>]) async {
  for task in tasks { await task.value }
}

/// Times `body` and returns its duration.
@MainActor
func time(_ body: () async throws -> Void) async rethrows -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  try await body()
  return start.duration(to: clock.now)
}

extension Duration {
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }

  var milliseconds: Double { nanoseconds / 1e6 }
  var seconds: Double { nanoseconds / 1e9 }
}

/// A benchmark's own check failed: its figure would be meaningless.
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Throws unless `condition` holds: every benchmark checks that the work it timed was done.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw BenchmarkFailure(message()) }
}
