import ComposableCore
import Foundation

/// A child whose work runs until cancelled, named after the child instance it belongs to, so a
/// test can tell exactly whose work is running.
struct Job: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var name: String
  }
  enum Action: Sendable, Equatable {
    case start
    /// Becomes a new child (`id`, `name`) and starts that child's work, in one action.
    case restart(id: Int, name: String)
  }
  let log: Log<String>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .restart(let id, let name) = action {
      state = State(id: id, name: name)
    }
    let name = state.name
    return .run { [log] _ in await sleepUntilCancelled(recording: log, as: name) }
  }
}

/// One feature an app composes several times: an optional detail and a list of rows, each a
/// ``Job``.
struct Panel: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    var id = 0
    var detail: Job.State?
    var rows: IdentifiedArray<Job.State> = []
  }
  enum Action: Sendable, Equatable {
    case detail(Job.Action)
    case rows(IdentifiedAction<Int, Job.Action>)
    case closeDetail
    case openDetail(Job.State)
    case removeRow(Int)
    case addRow(Job.State)
    case moveRows(fromOffsets: IndexSet, toOffset: Int)
    case reverseRows
    /// Replaces every row with a copy of `template` plus `row`.
    case resetRows(template: IdentifiedArray<Job.State>, row: Job.State)
  }
  let log: Log<String>

  var body: some Reducer<State, Action> {
    // Runs before the rows' reducer: a row asked to restart is first removed and added again
    // under its id, so the row reducer starts the new row's work in the same action.
    Reduce { state, action in
      if case .rows(.element(let id, .restart(_, let name))) = action {
        state.rows.remove(id: id)
        state.rows.append(Job.State(id: id, name: name))
      }
      return .none
    }
    Reduce { state, action in
      switch action {
      case .closeDetail: state.detail = nil
      case .openDetail(let detail): state.detail = detail
      case .removeRow(let id): state.rows.remove(id: id)
      case .addRow(let row): state.rows.append(row)
      case .moveRows(let offsets, let destination):
        state.rows.move(fromOffsets: offsets, toOffset: destination)
      case .reverseRows: state.rows.reverse()
      case .resetRows(let template, let row):
        state.rows = template
        state.rows.append(row)
      case .detail, .rows: break
      }
      return .none
    }
    .ifLet(\.detail, action: .detail) { Job(log: log) }
    .forEach(\.rows, action: .rows) { Job(log: log) }
  }
}

extension CasePath where Root == Panel.Action, Value == Job.Action {
  static var detail: Self {
    Self(embed: Panel.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CasePath where Root == Panel.Action, Value == IdentifiedAction<Int, Job.Action> {
  static var rows: Self {
    Self(embed: Panel.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// An app with two copies of ``Panel`` side by side and two lists of panels.
struct TwoPanels: Reducer {
  struct State: Equatable {
    var left = Panel.State()
    var right = Panel.State()
    var leftList: IdentifiedArray<Panel.State> = []
    var rightList: IdentifiedArray<Panel.State> = []
  }
  enum Action: Sendable, Equatable {
    case left(Panel.Action)
    case right(Panel.Action)
    case leftList(IdentifiedAction<Int, Panel.Action>)
    case rightList(IdentifiedAction<Int, Panel.Action>)
    case removeFromLeftList(Int)
    case sortLeftListDescending
  }
  let log: Log<String>

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: .left) { Panel(log: log) }
    Scope(state: \.right, action: .right) { Panel(log: log) }
    Reduce { state, action in
      switch action {
      case .removeFromLeftList(let id): state.leftList.remove(id: id)
      case .sortLeftListDescending: state.leftList.sort { $0.id > $1.id }
      default: break
      }
      return .none
    }
    .forEach(\.leftList, action: .leftList) { Panel(log: log) }
    .forEach(\.rightList, action: .rightList) { Panel(log: log) }
  }
}

extension CasePath where Root == TwoPanels.Action, Value == Panel.Action {
  static var left: Self {
    Self(embed: TwoPanels.Action.left) { if case .left(let a) = $0 { a } else { nil } }
  }
  static var right: Self {
    Self(embed: TwoPanels.Action.right) { if case .right(let a) = $0 { a } else { nil } }
  }
}

extension CasePath where Root == TwoPanels.Action, Value == IdentifiedAction<Int, Panel.Action> {
  static var leftList: Self {
    Self(embed: TwoPanels.Action.leftList) { if case .leftList(let a) = $0 { a } else { nil } }
  }
  static var rightList: Self {
    Self(embed: TwoPanels.Action.rightList) { if case .rightList(let a) = $0 { a } else { nil } }
  }
}

extension Panel.State {
  /// The names of every job in this panel.
  var jobNames: Set<String> { Set(((detail.map { [$0] } ?? []) + Array(rows)).map(\.name)) }
}

extension TwoPanels.State {
  /// The names of every job anywhere in the app.
  var jobNames: Set<String> {
    (left.jobNames).union(right.jobNames)
      .union((Array(leftList) + Array(rightList)).flatMap(\.jobNames))
  }
}

extension Log<String> {
  /// The names whose work started and was not cancelled since.
  var running: Set<String> {
    var running = Set<String>()
    for entry in all {
      if entry.hasSuffix(" started") {
        running.insert(String(entry.dropLast(" started".count)))
      } else if entry.hasSuffix(" cancelled") {
        running.remove(String(entry.dropLast(" cancelled".count)))
      }
    }
    return running
  }
}
