/// What a `.run` effect captures where it is built, for its task: the dependencies and issue
/// reporters in force, its priority, and where it was written (for reporting an error nothing
/// handled).
///
/// Not generic, so a running effect's record stores it at an offset known without metadata.
@usableFromInline
struct CapturedContext: Sendable {
  @usableFromInline let priority: TaskPriority?
  let dependencies: DependencyValues
  let reporters: [any IssueReporter]?
  let location: IssueLocation

  /// Captures the dependencies and reporters in force now.
  @usableFromInline
  init(priority: TaskPriority?, location: IssueLocation) {
    self.priority = priority
    self.dependencies = DependencyValues.current
    self.reporters = IssueReporters.scoped
    self.location = location
  }

  /// Whether the dependencies and issue reporters captured are the ones in force: an effect's
  /// task inherits those of the send that started it, which are usually the same, and then
  /// nothing is bound.
  var isInForce: Bool {
    dependencies.areInstalled && reportersAreInForce
  }

  /// Runs `body` with the captured dependencies and issue reporters bound.
  func install(_ body: () async -> Void) async {
    await DependencyValues.install(dependencies) {
      await IssueReporters.$scoped.withValue(reporters, operation: body)
    }
  }

  /// Handles an error an effect's operation threw that does not end it quietly (the caller
  /// asked ``endsEffectQuietly(_:)``): it goes to `handler`, or is reported.
  func handle<Action>(
    _ error: any Error, _ send: Send<Action>,
    handler: RunOperation<Action>.ErrorHandler?
  ) async {
    if let handler {
      await handler(error, send)
    } else {
      reportIssue(
        """
        An effect threw an error that nothing handled: \(String(reflecting: error)). \
        Handle it with `catch:` on `.run`, or inside the operation.
        """,
        fileID: location.fileID, filePath: location.filePath, line: location.line,
        column: location.column
      )
    }
  }

  /// Whether the reporters in force are the captured ones (the same array, or none).
  private var reportersAreInForce: Bool {
    switch (reporters, IssueReporters.scoped) {
    case (nil, nil): true
    case (let captured?, let current?):
      captured.withUnsafeBufferPointer { captured in
        current.withUnsafeBufferPointer { $0.baseAddress == captured.baseAddress }
      }
    default: false
    }
  }
}

/// Whether `error` ends an effect quietly: the effect was cancelled (URLSession, for one,
/// throws `URLError.cancelled` when cancelled). Not generic and not inlined: an effect's task
/// asks before calling ``CapturedContext/handle(_:_:handler:)``, and its frame must stay small.
@inline(never)
func endsEffectQuietly(_ error: any Error) -> Bool {
  Task.isCancelled || error is CancellationError
}
