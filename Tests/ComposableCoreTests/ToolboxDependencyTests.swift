import ComposableCore
import ComposableTesting
import Foundation
import Testing

/// Reads the date, dice rolls and a clock, in the reduce and in an effect.
private struct Journal: Reducer {
  struct State: Equatable {
    var entries: [String] = []
  }
  enum Action: Sendable, Equatable {
    case note
    case noteLater
    case roll
  }

  @Dependency(\.date) var date
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
  @Dependency(\.suspendingClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .note:
      state.entries.append("note at \(date.now.timeIntervalSince1970)")
      return .none
    case .noteLater:
      return .run(modifying: State.self) { [clock] _, state in
        try await clock.sleep(for: .seconds(1))
        @Dependency(\.date) var date
        let now = date()
        await state.modify { $0.entries.append("later at \(now.timeIntervalSince1970)") }
      }
    case .roll:
      let rolls = withRandomNumberGenerator { generator in
        (0..<3).map { _ in Int.random(in: 1...6, using: &generator) }
      }
      state.entries.append("rolled \(rolls)")
      return .none
    }
  }
}

@MainActor
@Suite("Dependencies: date, randomness, clock names, transformDependency")
struct ToolboxDependencyTests {
  @Test("\\.date is a constant in tests (the epoch) and can be set")
  func dateInTests() async {
    let store = TestStore(initialState: Journal.State()) { Journal() }
    await store.send(.note) { $0.entries = ["note at 0.0"] }
    await store.send(.note) { $0.entries.append("note at 0.0") }  // constant, not the wall clock

    let set = TestStore(initialState: Journal.State()) {
      Journal()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 1_000))
    }
    await set.send(.note) { $0.entries = ["note at 1000.0"] }
  }

  @Test("DateGenerator: `now` is settable; live answers the system date")
  func dateGenerator() {
    var generator = DateGenerator.constant(Date(timeIntervalSince1970: 5))
    #expect(generator() == Date(timeIntervalSince1970: 5))
    generator.now = Date(timeIntervalSince1970: 7)
    #expect(generator.now == Date(timeIntervalSince1970: 7))
    let before = Date()
    let live = DateGenerator.liveValue.now
    #expect(live >= before && live <= Date())
  }

  @Test("withRandomNumberGenerator is seeded in tests: each test store rolls the same numbers")
  func seededRandomness() async {
    var expected = SeededRandomNumberGenerator(seed: 0)
    let rolls = (0..<3).map { _ in Int.random(in: 1...6, using: &expected) }
    var more = SeededRandomNumberGenerator(seed: 0)
    _ = (0..<3).map { _ in Int.random(in: 1...6, using: &more) }
    let next = (0..<3).map { _ in Int.random(in: 1...6, using: &more) }
    for _ in 0..<2 {
      let store = TestStore(initialState: Journal.State()) { Journal() }
      await store.send(.roll) { $0.entries = ["rolled \(rolls)"] }
      await store.send(.roll) { $0.entries.append("rolled \(next)") }  // the stream continues
    }
    let seeded = TestStore(initialState: Journal.State()) {
      Journal()
    } withDependencies: {
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(
        SeededRandomNumberGenerator(seed: 42))
    }
    var fortyTwo = SeededRandomNumberGenerator(seed: 42)
    let other = (0..<3).map { _ in Int.random(in: 1...6, using: &fortyTwo) }
    await seeded.send(.roll) { $0.entries = ["rolled \(other)"] }
  }

  @Test("SeededRandomNumberGenerator is SplitMix64 (reference outputs for seed 0)")
  func splitMix64() {
    var generator = SeededRandomNumberGenerator(seed: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(generator.next() == 0x06C4_5D18_8009_454F)
  }

  @Test("\\.continuousClock and \\.suspendingClock are the \\.clock, read and written")
  func clockAliases() async {
    let clock = TestClock()
    var values = DependencyValues()
    values.continuousClock = clock
    #expect(values.clock as? TestClock === clock)
    #expect(values.suspendingClock as? TestClock === clock)
    let other = TestClock()
    values.suspendingClock = other
    #expect(values.clock as? TestClock === other)

    // A feature sleeping on \.suspendingClock is driven by the test's `$0.clock`.
    let store = TestStore(initialState: Journal.State()) {
      Journal()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.noteLater)
    await clock.advance(by: .seconds(1))
    await store.receiveModification { $0.entries = ["later at 0.0"] }
  }

  @Test("transformDependency changes the value in force, for the reduce and its effects")
  func transformDependency() async {
    let clock = TestClock()
    let store = TestStore(initialState: Journal.State()) {
      Journal().transformDependency(\.date) { date in
        let base = date.now
        date = DateGenerator { base.addingTimeInterval(100) }
      }
    } withDependencies: {
      $0.clock = clock
      $0.date = .constant(Date(timeIntervalSince1970: 1))
    }
    await store.send(.note) { $0.entries = ["note at 101.0"] }
    await store.send(.noteLater)
    await clock.advance(by: .seconds(1))
    await store.receiveModification { $0.entries.append("later at 101.0") }
  }
}
