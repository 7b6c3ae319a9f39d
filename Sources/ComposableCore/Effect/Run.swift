/// The async work of a `.run` effect, with the context captured when it was built.
///
/// The user's operation is stored as it was given (a plain `.run`'s closure is called
/// directly from the effect's task), and errors are handled here: every async frame between a
/// task and the user's code can cost the task a second allocator slab (1 KB).
@usableFromInline
struct RunOperation<Action: Sendable>: Sendable {
  typealias Operation = @Sendable (Send<Action>) async throws -> Void
  typealias ErrorHandler = @Sendable (any Error, Send<Action>) async -> Void

  let priority: TaskPriority?
  let dependencies: DependencyValues
  let reporters: [any IssueReporter]?
  let operation: Operation
  let handler: ErrorHandler?
  let location: IssueLocation

  init(
    priority: TaskPriority?, location: IssueLocation, operation: @escaping Operation,
    handler: ErrorHandler?
  ) {
    self.priority = priority
    self.dependencies = DependencyValues.current
    self.reporters = IssueReporters.scoped
    self.location = location
    self.operation = operation
    self.handler = handler
  }

  private init<Other>(
    copying other: RunOperation<Other>, operation: @escaping Operation, handler: ErrorHandler?
  ) {
    self.priority = other.priority
    self.dependencies = other.dependencies
    self.reporters = other.reporters
    self.location = other.location
    self.operation = operation
    self.handler = handler
  }

  /// The same operation with its context transformed (action embedding, state lifting).
  func transformed<NewAction>(
    _ transform: @escaping @Sendable (EffectContext<NewAction>) -> EffectContext<Action>
  ) -> RunOperation<NewAction> {
    let operation = self.operation
    let transformedOperation: RunOperation<NewAction>.Operation = { send in
      try await operation(Send(transform(send.context)))
    }
    var transformedHandler: RunOperation<NewAction>.ErrorHandler?
    if let handler = self.handler {
      transformedHandler = { error, send in await handler(error, Send(transform(send.context))) }
    }
    return RunOperation<NewAction>(
      copying: self, operation: transformedOperation, handler: transformedHandler)
  }

  /// Whether the dependencies and issue reporters captured are the ones in force: an effect's
  /// task inherits those of the send that started it, which are usually the same, and then
  /// nothing is bound (the store's `EffectRun` calls ``operation`` directly).
  var isContextInForce: Bool {
    dependencies.areInstalled && reportersAreInForce
  }

  /// Runs the operation with the captured dependencies and issue reporters bound. Out of line
  /// (as ``handle(_:_:)``): each async frame between an effect's task and the user's code
  /// costs memory while the effect is suspended.
  func runInstallingContext(_ context: EffectContext<Action>) async {
    await DependencyValues.install(dependencies) {
      await IssueReporters.$scoped.withValue(reporters) {
        do {
          try await operation(Send(context))
        } catch {
          await handle(error, Send(context))
        }
      }
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

  /// Cancellation ends the effect quietly (URLSession, for one, throws `URLError.cancelled`
  /// when cancelled); other errors go to the handler, or are reported.
  func handle(_ error: any Error, _ send: Send<Action>) async {
    guard !(error is CancellationError || Task.isCancelled) else { return }
    if let handler {
      await handler(error, send)
    } else {
      reportUnhandled(error)
    }
  }

  private func reportUnhandled(_ error: any Error) {
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

extension Effect {
  /// Runs `operation` asynchronously; it may send actions back with `send`.
  ///
  /// `CancellationError`, and any error thrown after the effect was cancelled, ends the effect
  /// quietly. Other errors go to `handler`, or are reported as issues when there is none.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await event in client.events() { await send(.eventReceived(event)) }
  /// }
  /// ```
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    Self(
      .run(
        RunOperation(
          priority: priority,
          location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column),
          operation: operation, handler: handler)))
  }

  /// Runs `operation` asynchronously; it may change the reducer's `State` directly when its work
  /// returns (`state.modify { … }`), and send actions.
  ///
  /// This is the package's one mechanism for applying async results: no `Result`-wrapped
  /// response action per operation. Modifications are applied on the main actor in order with
  /// actions, lifted through `Scope`, `ifLet` and `forEach` to the reducer's own state, and
  /// asserted in tests with `TestStore.receiveModification`.
  ///
  /// ```swift
  /// case .prepare:
  ///   state.availability = .preparing
  ///   return .run(modifying: State.self) { send, state in
  ///     let session = try await client.prepareSource(id)
  ///     await state.modify { $0.availability = .ready(session) }
  ///   } catch: { error, send, state in
  ///     await state.modify { $0.availability = .preparationFailed(WorkspaceFailure(error)) }
  ///   }
  /// ```
  public static func run<State>(
    modifying stateType: State.Type,
    priority: TaskPriority? = nil,
    operation:
      @escaping @Sendable (_ send: Send<Action>, _ state: StateModifier<State>) async throws -> Void,
    catch handler: (
      @Sendable (_ error: any Error, _ send: Send<Action>, _ state: StateModifier<State>) async ->
        Void
    )? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    var handleError: RunOperation<Action>.ErrorHandler?
    if let handler {
      handleError = { error, send in
        await handler(error, send, StateModifier<State>(context: send.context))
      }
    }
    return Self(
      .run(
        RunOperation(
          priority: priority,
          location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column),
          operation: { send in
            try await operation(send, StateModifier<State>(context: send.context))
          },
          handler: handleError)))
  }
}
