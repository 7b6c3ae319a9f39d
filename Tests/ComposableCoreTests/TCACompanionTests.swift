import ComposableCore
import Foundation
import Testing

/// Case paths that chain, and the pieces TCA code reaches for.
struct TCACompanionTests {
  enum Child: Equatable {
    case tap
    case rename(String)
  }
  enum Action {
    case ping
    case pong
    case first(Int)
    case second(Int)
    case response(Result<String, any Error>)
    case child(Child)
    case rows(IdentifiedAction<Int, Child>)
  }
  struct Boom: Error {}

  static func fetch(fail: Bool) async throws -> String {
    await Task.yield()
    if fail { throw Boom() }
    return "done"
  }

  @Test("A case path from the constructor tells apart two cases with the same payload type")
  func constructorCasePath() {
    let first = CasePath<Action, Int>(Action.first)
    #expect(first.extract(from: .first(3)) == 3)
    #expect(first.extract(from: .second(3)) == nil)
    #expect(first.extract(from: .ping) == nil)
    let ping = CasePath<Action, Void>(Action.ping)
    #expect(ping.extract(from: .ping) != nil)
    #expect(ping.extract(from: .pong) == nil)
    #expect(ping.extract(from: .first(0)) == nil)
  }

  @Test("Case paths chain by leading dot and by key path, through Result and [id:]")
  func chaining() {
    let success: CasePath<Action, String> = .response.success
    #expect(success.extract(from: .response(.success("hi"))) == "hi")
    #expect(success.extract(from: .response(.failure(Boom()))) == nil)
    let failure = CasePath<Action, any Error>(\.response.failure)
    #expect(failure.extract(from: .response(.failure(Boom()))) is Boom)
    let tap = CasePath<Action, Void>(\.child.tap)
    #expect(tap.extract(from: .child(.tap)) != nil)
    #expect(tap.extract(from: .child(.rename("x"))) == nil)
    let rowTwo = CasePath<Action, Child>(\.rows[id: 2])
    #expect(rowTwo.extract(from: .rows(.element(id: 2, action: .tap))) == .tap)
    #expect(rowTwo.extract(from: .rows(.element(id: 3, action: .tap))) == nil)
    guard
      case .rows(.element(2, .rename("r"))) = CasePath<Action, String>(\.rows[id: 2].rename).embed(
        "r")
    else {
      Issue.record("embedding through [id:] built the wrong action")
      return
    }
  }

  @Test("UUID(n) is what the incrementing generator yields")
  func integerUUIDs() {
    let generator = UUIDGenerator.incrementing
    #expect(generator() == UUID(0))
    #expect(generator() == UUID(1))
    #expect(UUID(255).uuidString == "00000000-0000-0000-0000-0000000000FF")
  }

  struct Row: Identifiable, Equatable { let id: Int }

  @Test("remove(atOffsets:) and move(fromOffsets:toOffset:) keep the other elements' identity")
  func offsets() {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 0), Row(id: 1), Row(id: 2), Row(id: 3)]
    let kept = rows.generation(of: 3)
    rows.remove(atOffsets: IndexSet([0, 2]))
    #expect(rows.ids == [1, 3])
    #expect(rows.generation(of: 3) == kept)
    #expect(rows.index(id: 3) == 1)
    rows.append(Row(id: 4))
    rows.move(fromOffsets: IndexSet(integer: 0), toOffset: 3)
    #expect(rows.ids == [3, 4, 1])
    #expect(rows.generation(of: 3) == kept)
    #expect(rows[id: 1] == Row(id: 1))
  }

  @Test("ImmediateClock ends sleeps at once and moves its time")
  func immediateClock() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(5))
    #expect(clock.now == ImmediateClock.Instant(offset: .seconds(5)))
  }

  @Test("Task.never() waits until cancelled, then throws CancellationError")
  func taskNever() async {
    let task = Task { try await Task<String, Never>.never() }
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
  }

  @Test("Result(catching:) awaits async work")
  func asyncResult() async throws {
    let ok = await Result { try await Self.fetch(fail: false) }
    #expect(try ok.get() == "done")
    let failed = await Result { try await Self.fetch(fail: true) }
    #expect(throws: Boom.self) { try failed.get() }
  }
}

extension CasePath where Root == TCACompanionTests.Action {
  static var response: CasePath<Root, Result<String, any Error>> { .init(Root.response) }
  static var child: CasePath<Root, TCACompanionTests.Child> { .init(Root.child) }
  static var rows: CasePath<Root, IdentifiedAction<Int, TCACompanionTests.Child>> {
    .init(Root.rows)
  }
}

extension CasePath where Root == TCACompanionTests.Child {
  static var tap: CasePath<Root, Void> { .init(Root.tap) }
  static var rename: CasePath<Root, String> { .init(Root.rename) }
}
