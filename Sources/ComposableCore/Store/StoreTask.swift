/// The in-flight work of an action: every effect it (and actions it sent synchronously with
/// `.send`) started, and — transitively — the effects of actions those effects sent back.
///
/// ```swift
/// await store.send(.authorizationInvalidated).finish()
/// await store.send(.refreshAdmission).finish()
/// ```
///
/// Work the action cancelled is not part of it: a cancelled effect can no longer send or
/// modify state (so its late answer never lands), but waiting for it to stop could hang on work
/// that ignores cancellation. `TestStore.finish()` does wait for such effects, so tests see
/// them. A task whose effects never end (a timer) never finishes; cancel it.
public struct StoreTask: Sendable {
  /// The tasks of one send; effects of that send add to it while they run.
  @usableFromInline
  final class Box: Sendable {
    private let tasks = LockIsolated<[Task<Void, Never>]>([])

    @usableFromInline init() {}

    func append(_ task: Task<Void, Never>) {
      tasks.withValue { $0.append(task) }
    }

    /// The tasks from position `start` on.
    func tasks(from start: Int) -> ArraySlice<Task<Void, Never>> {
      tasks.withValue { $0[min(start, $0.count)...] }
    }
  }

  @usableFromInline let box: Box?

  /// The task of an action that started no effect.
  @usableFromInline
  init() {
    self.box = nil
  }

  @usableFromInline
  init(_ box: Box) {
    self.box = box
  }

  /// Cancels every effect of the action.
  public func cancel() {
    for task in box?.tasks(from: 0) ?? [] { task.cancel() }
  }

  /// Waits until every effect of the action has finished, including effects started meanwhile
  /// by actions they sent. Cancelling the waiting task cancels the effects.
  public func finish() async {
    guard let box else { return }
    await withTaskCancellationHandler {
      var awaited = 0
      while true {
        let pending = box.tasks(from: awaited)
        guard !pending.isEmpty else { return }
        for task in pending { await task.value }
        awaited += pending.count
      }
    } onCancel: {
      cancel()
    }
  }

  /// `true` when every effect of the action was cancelled, or the action started none.
  public var isCancelled: Bool {
    (box?.tasks(from: 0) ?? []).allSatisfy(\.isCancelled)
  }
}
