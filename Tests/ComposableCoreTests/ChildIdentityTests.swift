import ComposableCore
import ComposableTesting
import Testing

/// Starts a child's work and waits until it runs.
@MainActor
private func start(
  _ store: Store<TwoPanels.State, TwoPanels.Action>, _ action: TwoPanels.Action,
  named name: String, log: Log<String>, into tasks: inout [StoreTask]
) async {
  tasks.append(store.send(action))
  await log.wait(for: "\(name) started")
}

/// Cancels whatever a test left running and waits for it to stop.
private func stop(_ tasks: [StoreTask]) async {
  for task in tasks { task.cancel() }
  for task in tasks { await task.finish(timeout: .seconds(15)) }
}

@MainActor
@Suite("A child's lifetime is its whole path from the root, one instance at a time")
struct ChildIdentityTests {
  @Test("Closing the detail of one scoped copy of a feature leaves the other copy's working")
  func scopedCopiesKeepTheirOwnDetail() async {
    let log = Log<String>()
    var state = TwoPanels.State()
    state.left.detail = Job.State(id: 1, name: "left detail")
    state.right.detail = Job.State(id: 1, name: "right detail")
    let store = Store(initialState: state) { TwoPanels(log: log) }
    var tasks: [StoreTask] = []
    await start(store, .left(.detail(.start)), named: "left detail", log: log, into: &tasks)
    await start(store, .right(.detail(.start)), named: "right detail", log: log, into: &tasks)

    store.send(.right(.closeDetail))
    #expect(log.running == ["left detail"])
    store.send(.left(.closeDetail))
    #expect(log.running == [])
    await stop(tasks)
  }

  @Test("Closing the left copy's detail first stops the left one's work, not the right one's")
  func scopedCopiesStopTheirOwnDetail() async {
    let log = Log<String>()
    var state = TwoPanels.State()
    state.left.detail = Job.State(id: 1, name: "left detail")
    state.right.detail = Job.State(id: 1, name: "right detail")
    let store = Store(initialState: state) { TwoPanels(log: log) }
    var tasks: [StoreTask] = []
    await start(store, .left(.detail(.start)), named: "left detail", log: log, into: &tasks)
    await start(store, .right(.detail(.start)), named: "right detail", log: log, into: &tasks)

    store.send(.left(.closeDetail))
    #expect(log.running == ["right detail"])
    await stop(tasks)
  }

  @Test("Rows with one id in two scoped copies of a feature live and die apart")
  func scopedCopiesKeepTheirOwnRows() async {
    let log = Log<String>()
    var state = TwoPanels.State()
    state.left.rows = [Job.State(id: 1, name: "left row")]
    state.right.rows = [Job.State(id: 1, name: "right row")]
    let store = Store(initialState: state) { TwoPanels(log: log) }
    var tasks: [StoreTask] = []
    await start(
      store, .left(.rows(.element(id: 1, action: .start))), named: "left row", log: log,
      into: &tasks)
    await start(
      store, .right(.rows(.element(id: 1, action: .start))), named: "right row", log: log,
      into: &tasks)

    store.send(.right(.removeRow(1)))
    #expect(log.running == ["left row"])
    store.send(.left(.removeRow(1)))
    #expect(log.running == [])
    await stop(tasks)
  }

  @Test("An ifLet child that becomes another child and starts its work loses the old work")
  func ifLetChildReplacedWhileStartingWork() async {
    let log = Log<String>()
    var state = TwoPanels.State()
    state.left.detail = Job.State(id: 1, name: "first")
    let store = Store(initialState: state) { TwoPanels(log: log) }
    var tasks: [StoreTask] = []
    await start(store, .left(.detail(.start)), named: "first", log: log, into: &tasks)

    await start(
      store, .left(.detail(.restart(id: 2, name: "second"))), named: "second", log: log,
      into: &tasks)
    #expect(log.running == ["second"])
    store.send(.left(.closeDetail))
    #expect(log.running == [])
    await stop(tasks)
  }

  @Test("A row removed and added again while the new row starts its work loses the old work")
  func forEachRowReplacedWhileStartingWork() async {
    let log = Log<String>()
    var state = TwoPanels.State()
    state.left.rows = [Job.State(id: 1, name: "first")]
    let store = Store(initialState: state) { TwoPanels(log: log) }
    var tasks: [StoreTask] = []
    await start(
      store, .left(.rows(.element(id: 1, action: .start))), named: "first", log: log,
      into: &tasks)

    await start(
      store, .left(.rows(.element(id: 1, action: .restart(id: 1, name: "second")))),
      named: "second", log: log, into: &tasks)
    #expect(log.running == ["second"])
    store.send(.left(.removeRow(1)))
    #expect(log.running == [])
    await stop(tasks)
  }

  @Test("Rows reset to a copy of one template plus a row are new rows: the old row's work stops")
  func rowsResetFromATemplate() async {
    let log = Log<String>()
    let template: IdentifiedArray<Job.State> = []
    var state = TwoPanels.State()
    state.left.rows = template
    state.left.rows.append(Job.State(id: 1, name: "first"))
    let store = Store(initialState: state) { TwoPanels(log: log) }
    var tasks: [StoreTask] = []
    await start(
      store, .left(.rows(.element(id: 1, action: .start))), named: "first", log: log,
      into: &tasks)

    store.send(.left(.resetRows(template: template, row: Job.State(id: 1, name: "second"))))
    #expect(log.running == [])
    await stop(tasks)
  }

  @Test("Two copies of one array that each add the same id hold two different insertions")
  func generationsAreUniqueAcrossCopies() {
    let template: IdentifiedArray<Job.State> = [Job.State(id: 0, name: "zero")]
    var first = template
    var second = template
    first.append(Job.State(id: 1, name: "one"))
    second.append(Job.State(id: 1, name: "one"))
    #expect(first.generation(of: 1) != nil)
    #expect(first.generation(of: 1) != second.generation(of: 1))
    #expect(first.generation(of: 0) == second.generation(of: 0))
  }

  @Test("An array literal that repeats an id is reported")
  func literalRepeatingAnID() {
    let recorder = RecordingReporter()
    let rows = withIssueReporters([recorder]) {
      [Job.State(id: 1, name: "a"), Job.State(id: 1, name: "b")]
        as IdentifiedArray<Job.State>
    }
    #expect(rows.ids == [1])
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("id 1") == true)
  }
}
