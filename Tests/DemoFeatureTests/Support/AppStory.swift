import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import Testing
import WorkspaceDemoFeature

/// The demo application exactly as it runs: the store `makeWorkspaceDemoStore` builds, on an
/// in-memory system. Every issue the store reports goes to ``issues`` (each story asserts them),
/// and every wait is bounded: a story that would hang fails with a message instead.
@MainActor
final class AppStory {
  let system: DemoSystem
  let credentials: DemoCredentials
  let store: Store<App.State, App.Action>
  let issues = IssueRecorder()

  /// `makeWorkspaceDemoStore(.inMemory(system:credentials:workingCopies:), initialState:)`.
  init(
    system: DemoSystem = DemoSystem(configuration: .init(projectionLag: 1)),
    credentials: DemoCredentials = DemoCredentials(),
    initialState: App.State = App.State()
  ) {
    self.system = system
    self.credentials = credentials
    self.store = makeWorkspaceDemoStore(
      .inMemory(
        system: system, credentials: credentials,
        workingCopies: initialState.editing.workspace.session.map { [$0] } ?? []),
      initialState: initialState)
  }

  /// `makeWorkspaceDemoStore` on the in-memory system's clients, with `workspace` (which may
  /// wrap the in-memory client) and `workingCopies` the local data removes from.
  init(
    system: DemoSystem,
    credentials: DemoCredentials,
    workingCopies: DemoWorkingCopies,
    workspace: DemoWorkspaceClient
  ) {
    self.system = system
    self.credentials = credentials
    var clients = DemoClients.inMemory(system: system, credentials: credentials)
    clients.workspace = workspace
    clients.localData = .demo(workingCopies: workingCopies)
    self.store = makeWorkspaceDemoStore(clients)
  }

  var state: App.State { store.state }

  /// Sends `action` and waits, bounded, for all its work (and the work it sets off).
  func send(
    _ action: App.Action, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await finish(start(action), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Sends `action` without waiting for its work.
  func start(_ action: App.Action) -> StoreTask {
    withIssueReporters([issues]) { store.send(action) }
  }

  /// Waits, bounded, for `task`; cancels it and fails the test when its effects stop ending.
  func finish(
    _ task: StoreTask, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await task.finish(
      timeout: .seconds(15), fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// Waits for `operation` at most `limit`; when it takes longer the test fails naming `what`
/// and the operation is left behind (never awaited again), so the test cannot hang.
@discardableResult
func bounded(
  _ what: String,
  within limit: Duration = .seconds(15),
  sourceLocation: SourceLocation = #_sourceLocation,
  _ operation: @escaping @Sendable () async -> Void
) async -> Bool {
  // Whichever ends first — the operation or the timer — decides; the other is ignored.
  let outcome = LockIsolated<(waiter: CheckedContinuation<Bool, Never>?, result: Bool?)>((nil, nil))
  @Sendable func end(_ finished: Bool) {
    let waiter = outcome.withValue { outcome -> CheckedContinuation<Bool, Never>? in
      guard outcome.result == nil else { return nil }
      outcome.result = finished
      defer { outcome.waiter = nil }
      return outcome.waiter
    }
    waiter?.resume(returning: finished)
  }
  let timer = Task {
    try? await Task.sleep(for: limit)
    end(false)
  }
  Task {
    await operation()
    end(true)
  }
  let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    let decided = outcome.withValue { outcome -> Bool? in
      if outcome.result == nil { outcome.waiter = continuation }
      return outcome.result
    }
    if let decided { continuation.resume(returning: decided) }
  }
  timer.cancel()
  if !finished {
    Issue.record("Waited \(limit) for \(what); it did not end.", sourceLocation: sourceLocation)
  }
  return finished
}

/// Fires when a client call arrives; a story awaits it (bounded) before acting.
final class Arrival: Sendable {
  private let signal = LockIsolated<(arrived: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func fire() {
    let waiters = signal.withValue { signal in
      signal.arrived = true
      defer { signal.waiters = [] }
      return signal.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait(sourceLocation: SourceLocation = #_sourceLocation) async {
    await bounded("a client call to arrive", sourceLocation: sourceLocation) {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let arrived = self.signal.withValue { signal in
          if !signal.arrived { signal.waiters.append(continuation) }
          return signal.arrived
        }
        if arrived { continuation.resume() }
      }
    }
  }
}
