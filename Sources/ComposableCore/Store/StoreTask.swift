/// The in-flight work an action started: every effect it (and actions it sent synchronously
/// with `.send`) started.
///
/// Work the action cancelled is not part of it: a cancelled effect can no longer send or
/// modify state (so its late answer never lands), but waiting for it to stop could hang on work
/// that ignores cancellation. `TestStore.finish()` does wait for such effects, so tests see
/// them.
///
/// ```swift
/// await store.send(.authorizationInvalidated).finish()
/// await store.send(.refreshAdmission).finish()
/// ```
public struct StoreTask: Sendable {
  @usableFromInline
  enum Tasks: Sendable {
    case known([Task<Void, Never>])
    /// Filled in when a queued (re-entrant) action is processed, before its `send` returns to
    /// any code that could await it.
    case deferred(LockIsolated<[Task<Void, Never>]>)
  }

  @usableFromInline let tasks: Tasks

  @usableFromInline
  init(_ tasks: [Task<Void, Never>]) {
    self.tasks = .known(tasks)
  }

  @usableFromInline
  init(deferred: LockIsolated<[Task<Void, Never>]>) {
    self.tasks = .deferred(deferred)
  }

  private var current: [Task<Void, Never>] {
    switch tasks {
    case .known(let tasks): tasks
    case .deferred(let box): box.current
    }
  }

  /// Cancels every effect of the action.
  public func cancel() {
    for task in current { task.cancel() }
  }

  /// Waits until every effect of the action has finished. Cancelling the waiting task cancels
  /// the effects.
  public func finish() async {
    let tasks = current
    await withTaskCancellationHandler {
      for task in tasks { await task.value }
    } onCancel: {
      for task in tasks { task.cancel() }
    }
  }

  /// `true` when every effect of the action was cancelled, or the action started none.
  public var isCancelled: Bool {
    current.allSatisfy(\.isCancelled)
  }
}
