import ComposableCore
import ComposableTesting
import Testing

private struct Row: Identifiable, Equatable, Sendable {
  var id: Int
  var title = ""
}

/// Every id maps to the position of the element that has it, and only to that one.
private func expectConsistent(
  _ rows: IdentifiedArray<Row>, sourceLocation: SourceLocation = #_sourceLocation
) {
  for (position, row) in rows.enumerated() {
    #expect(rows.index(id: row.id) == position, sourceLocation: sourceLocation)
    #expect(rows.contains(id: row.id), sourceLocation: sourceLocation)
  }
  #expect(Set(rows.ids).count == rows.count, sourceLocation: sourceLocation)
}

/// A row whose reducer (wrongly) changes its own id, and starts work that runs until cancelled.
private struct Renaming: Reducer {
  typealias State = Row
  enum Action: Sendable, Equatable {
    case start
    case rename(to: Int)
  }
  let log: Log<String>

  func reduce(into state: inout Row, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      let name = "row \(state.id)"
      return .run { [log] _ in await sleepUntilCancelled(recording: log, as: name) }
    case .rename(let id):
      state.id = id
      return .none
    }
  }
}

private struct Rows: Reducer {
  struct State: Equatable { var rows: IdentifiedArray<Row> = [] }
  enum Action: Sendable, Equatable { case rows(IdentifiedAction<Int, Renaming.Action>) }
  let log: Log<String>

  var body: some Reducer<State, Action> {
    Reduce { _, _ in .none }
      .forEach(
        \.rows,
        action: CasePath(embed: Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
      ) {
        Renaming(log: log)
      }
  }
}

@MainActor
@Suite("IdentifiedArray keeps its index whatever is written")
struct IdentifiedArrayTests {
  @Test("Writing an element under another id is reported and changes nothing")
  func writeUnderAnotherID() {
    let recorder = RecordingReporter()
    var rows: IdentifiedArray<Row> = [Row(id: 1), Row(id: 2)]
    withIssueReporters([recorder]) {
      rows[id: 1] = Row(id: 3)
    }
    #expect(rows.ids == [1, 2])
    #expect(rows.contains(id: 1) && !rows.contains(id: 3))
    expectConsistent(rows)
    #expect(recorder.messages.count == 1)
    #expect(
      recorder.messages.first?.contains("an element with id 3 was written under id 1") == true)
  }

  @Test("Changing an element's id in modify(id:) is reported; the element moves to the free id")
  func modifyToAFreeID() {
    let recorder = RecordingReporter()
    var rows: IdentifiedArray<Row> = [Row(id: 1, title: "a"), Row(id: 2)]
    withIssueReporters([recorder]) {
      rows.modify(id: 1) { $0.id = 3 }
    }
    #expect(rows.ids == [3, 2])
    #expect(!rows.contains(id: 1))
    #expect(rows[id: 3]?.title == "a")
    expectConsistent(rows)
    #expect(recorder.messages.first?.contains("changed its id to 3. It is kept under 3") == true)
  }

  @Test("Changing an element's id to one another element has drops it, and says so")
  func modifyToATakenID() {
    let recorder = RecordingReporter()
    var rows: IdentifiedArray<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    withIssueReporters([recorder]) {
      rows.modify(id: 1) { $0.id = 2 }
    }
    #expect(rows.ids == [2])
    #expect(rows[id: 2]?.title == "b")
    expectConsistent(rows)
    #expect(
      recorder.messages.first?.contains("Another element has id 2, so it was dropped") == true)
  }

  @Test("Ordinary edits keep the index: append, insert, remove, write in place")
  func ordinaryEdits() {
    var rows: IdentifiedArray<Row> = [Row(id: 1), Row(id: 2), Row(id: 3)]
    rows.insert(Row(id: 4), at: 1)
    rows.remove(id: 2)
    rows[id: 3]?.title = "three"
    rows.append(Row(id: 1, title: "one"))
    rows.insert(Row(id: 3, title: "moved"), at: 0)
    #expect(rows.ids == [3, 1, 4])
    #expect(rows.map(\.title) == ["moved", "one", ""])
    expectConsistent(rows)
  }

  @Test(
    "A forEach element reducer that changes its id is reported; the index holds and its effects stop"
  )
  func forEachElementChangingItsID() async {
    let recorder = RecordingReporter()
    let log = Log<String>()
    let store = Store(initialState: Rows.State(rows: [Row(id: 1), Row(id: 2)])) { Rows(log: log) }
    let running = store.send(.rows(.element(id: 1, action: .start)))
    await log.wait(for: "row 1 started")
    withIssueReporters([recorder]) {
      _ = store.send(.rows(.element(id: 1, action: .rename(to: 5))))
    }
    #expect(store.rows.ids == [5, 2])
    expectConsistent(store.rows)
    #expect(recorder.messages.count == 1)
    // The element its effects belonged to (id 1) is gone, so they are cancelled.
    await running.finish(timeout: .seconds(15))
    #expect(log.all == ["row 1 started", "row 1 cancelled"])
  }
}

@MainActor
@Suite("IdentifiedArray moves keep identity")
struct IdentifiedArrayMoveTests {
  @Test("move, swap, sort and reverse keep every element's insertion")
  func movesKeepGenerations() {
    var rows: IdentifiedArray<Row> = [Row(id: 1), Row(id: 2), Row(id: 3), Row(id: 4)]
    let generations = rows.ids.map { rows.generation(of: $0) }
    rows.move(fromOffsets: [0, 2], toOffset: 4)
    #expect(rows.ids == [2, 4, 1, 3])
    expectConsistent(rows)
    rows.swapAt(0, 3)
    #expect(rows.ids == [3, 4, 1, 2])
    rows.sort { $0.id < $1.id }
    #expect(rows.ids == [1, 2, 3, 4])
    rows.reverse()
    #expect(rows.ids == [4, 3, 2, 1])
    expectConsistent(rows)
    rows[0].title = "four"
    #expect(rows[id: 4]?.title == "four")
    #expect([1, 2, 3, 4].map { rows.generation(of: $0) } == generations)
  }

  @Test("A positional write of another id is reported and ignored")
  func positionalWriteOfAnotherID() {
    let recorder = RecordingReporter()
    var rows: IdentifiedArray<Row> = [Row(id: 1), Row(id: 2)]
    withIssueReporters([recorder]) { rows[0] = Row(id: 2) }
    #expect(rows.ids == [1, 2])
    expectConsistent(rows)
    #expect(recorder.messages.count == 1)
  }

  @Test("init(uniqueElements:) reports a repeated id")
  func uniqueElementsReportsRepeats() {
    let recorder = RecordingReporter()
    let rows = withIssueReporters([recorder]) {
      IdentifiedArray(uniqueElements: [Row(id: 1), Row(id: 2), Row(id: 1, title: "again")])
    }
    #expect(rows.ids == [1, 2])
    #expect(recorder.messages.first?.contains("repeat id 1") == true)
  }
}
