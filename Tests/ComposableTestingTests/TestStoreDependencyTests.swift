import ComposableCore
import ComposableTesting
import Foundation
import Testing

/// Stamps the date (and a die roll) now, or after a second on the clock.
private struct Stamper: Reducer {
  struct State: Equatable { var stamps: [String] = [] }
  enum Action: Sendable, Equatable { case stamp, stampLater }

  @Dependency(\.date) var date
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
  @Dependency(\.clock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stamp:
      let roll = withRandomNumberGenerator { UInt8.random(in: 0...255, using: &$0) }
      state.stamps.append("\(date.now.timeIntervalSince1970) roll \(roll)")
      return .none
    case .stampLater:
      return .run(modifying: State.self) { [clock] _, state in
        try await clock.sleep(for: .seconds(1))
        @Dependency(\.date) var date
        let now = date.now
        await state.modify { $0.stamps.append("later \(now.timeIntervalSince1970)") }
      }
    }
  }
}

private func roll(seed: UInt64) -> UInt8 {
  var generator = SeededRandomNumberGenerator(seed: seed)
  return UInt8.random(in: 0...255, using: &generator)
}

@MainActor
@Suite("TestStore: changing dependencies after creation")
struct TestStoreDependencyTests {
  @Test(
    "store.dependencies.date.now = … reaches later actions; running effects keep their reduce's values"
  )
  func changeDate() async {
    let clock = TestClock()
    let store = TestStore(initialState: Stamper.State()) {
      Stamper()
    } withDependencies: {
      $0.clock = clock
    }
    await store.send(.stamp) { $0.stamps = ["0.0 roll \(roll(seed: 0))"] }
    await store.send(.stampLater)  // its effect captured the date of this reduce: the epoch
    store.dependencies.date.now = Date(timeIntervalSince1970: 60)
    store.dependencies.withRandomNumberGenerator = WithRandomNumberGenerator(
      SeededRandomNumberGenerator(seed: 7))
    await store.send(.stamp) { $0.stamps.append("60.0 roll \(roll(seed: 7))") }
    await clock.advance(by: .seconds(1))
    await store.receiveModification { $0.stamps.append("later 0.0") }
    await store.send(.stampLater)
    await clock.advance(by: .seconds(1))
    await store.receiveModification { $0.stamps.append("later 60.0") }
  }

  @Test("A TestClock installed after creation drives the effects of later actions")
  func changeClock() async {
    let store = TestStore(initialState: Stamper.State()) { Stamper() }
    let clock = TestClock()
    store.dependencies.continuousClock = clock
    await store.send(.stampLater)
    await clock.advance(by: .seconds(1))
    await store.receiveModification { $0.stamps = ["later 0.0"] }
  }
}
