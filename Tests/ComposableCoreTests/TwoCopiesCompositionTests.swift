import ComposableCore
import ComposableTesting
import Foundation
import Testing

@MainActor
@Suite("An app with two copies of one feature")
struct TwoCopiesCompositionTests {
  /// Two panels scoped side by side and two lists of panels, each panel with a detail and
  /// rows, where the same ids appear everywhere.
  private static var initialState: TwoPanels.State {
    func panel(_ prefix: String, id: Int = 0, rows: [Int]) -> Panel.State {
      Panel.State(
        id: id, detail: Job.State(id: 1, name: "\(prefix).detail"),
        rows: IdentifiedArray(
          uniqueElements: rows.map { Job.State(id: $0, name: "\(prefix).\($0)") })
      )
    }
    var state = TwoPanels.State()
    state.left = panel("left", rows: [1, 2, 3])
    state.right = panel("right", rows: [1, 2])
    state.leftList = [panel("leftList1", id: 1, rows: [1]), panel("leftList2", id: 2, rows: [1])]
    state.rightList = [panel("rightList1", id: 1, rows: [1])]
    return state
  }

  /// Every action that starts every job of a panel, wrapped for where the panel is.
  private static func starts(
    _ panel: Panel.State, _ wrap: (Panel.Action) -> TwoPanels.Action
  ) -> [(TwoPanels.Action, String)] {
    var starts: [(TwoPanels.Action, String)] = []
    if let detail = panel.detail { starts.append((wrap(.detail(.start)), detail.name)) }
    for row in panel.rows {
      starts.append((wrap(.rows(.element(id: row.id, action: .start))), row.name))
    }
    return starts
  }

  @Test("Every child's work lives exactly as long as that child: reorder, replace, remove")
  func everyChildsWorkLivesAsLongAsTheChild() async {
    let log = Log<String>()
    let store = Store(initialState: Self.initialState) { TwoPanels(log: log) }
    var tasks: [StoreTask] = []
    var all =
      Self.starts(store.left, TwoPanels.Action.left)
      + Self.starts(store.right, TwoPanels.Action.right)
    for panel in store.leftList {
      all += Self.starts(panel) { .leftList(.element(id: panel.id, action: $0)) }
    }
    for panel in store.rightList {
      all += Self.starts(panel) { .rightList(.element(id: panel.id, action: $0)) }
    }
    for (action, name) in all {
      tasks.append(store.send(action))
      await log.wait(for: "\(name) started")
    }
    #expect(log.running.count == 13)
    #expect(log.running == store.jobNames)

    // Reorder: rows, and panels in a list, keep their identity and their work.
    store.send(.left(.moveRows(fromOffsets: IndexSet(integer: 0), toOffset: 3)))
    store.send(.right(.reverseRows))
    store.send(.sortLeftListDescending)
    #expect(store.left.rows.ids == [2, 3, 1])
    #expect(store.leftList.ids == [2, 1])
    #expect(log.running == store.jobNames)
    #expect(log.running.count == 13)

    // Replacement: a new child that starts its work in the same action is the only one left.
    tasks.append(store.send(.right(.detail(.restart(id: 2, name: "right.detail2")))))
    tasks.append(
      store.send(
        .leftList(
          .element(
            id: 1, action: .rows(.element(id: 1, action: .restart(id: 1, name: "leftList1.1b")))))))
    await log.wait(for: "right.detail2 started")
    await log.wait(for: "leftList1.1b started")
    #expect(log.running == store.jobNames)
    #expect(!log.running.contains("right.detail") && !log.running.contains("leftList1.1"))

    // Sibling removal: only the removed sibling's work stops, whatever shares its ids.
    store.send(.left(.removeRow(2)))
    store.send(.removeFromLeftList(2))
    #expect(log.running == store.jobNames)
    #expect(log.running.contains("right.2") && log.running.contains("leftList1.detail"))

    // Removal: a closed detail, and a whole panel removed from a list with its children.
    store.send(.right(.closeDetail))
    store.send(.removeFromLeftList(1))
    #expect(log.running == store.jobNames)
    #expect(log.running.contains("left.detail") && log.running.contains("rightList1.detail"))
    #expect(log.running.contains("rightList1.1"))

    for task in tasks { task.cancel() }
    for task in tasks { await task.finish(timeout: .seconds(15)) }
    #expect(log.running.isEmpty)
  }
}
