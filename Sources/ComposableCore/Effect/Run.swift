/// The async work of a `.run` effect, with the context captured when it was built.
///
/// The user's operation is stored as it was given (a plain `.run`'s closure is called
/// directly from the effect's task): every async frame between a task and the user's code can
/// cost the task a second allocator slab (1 KB).
@usableFromInline
struct RunOperation<Action: Sendable>: Sendable {
  @usableFromInline typealias Operation = @Sendable (Send<Action>) async throws -> Void
  @usableFromInline typealias ErrorHandler = @Sendable (any Error, Send<Action>) async -> Void

  @usableFromInline let operation: Operation
  @usableFromInline let handler: ErrorHandler?
  @usableFromInline let captured: CapturedContext

  /// Inlinable, as `Effect.run`, so that building a `.run` is specialized for the feature's
  /// action type where it is built (no generic metadata lookups).
  @inlinable
  init(
    priority: TaskPriority?, location: IssueLocation, operation: @escaping Operation,
    handler: ErrorHandler?
  ) {
    self.init(
      operation: operation, handler: handler,
      captured: CapturedContext(priority: priority, location: location))
  }

  @usableFromInline
  init(operation: @escaping Operation, handler: ErrorHandler?, captured: CapturedContext) {
    self.operation = operation
    self.handler = handler
    self.captured = captured
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
      operation: transformedOperation, handler: transformedHandler, captured: captured)
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
  @inlinable
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
