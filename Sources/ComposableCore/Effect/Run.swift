/// The async work of a `.run` effect, with the context captured when it was built.
@usableFromInline
struct RunOperation<Action: Sendable>: Sendable {
  let priority: TaskPriority?
  let dependencies: DependencyValues
  let reporters: [any IssueReporter]?
  let body: @Sendable (EffectContext<Action>) async -> Void

  init(
    priority: TaskPriority?,
    body: @escaping @Sendable (EffectContext<Action>) async -> Void
  ) {
    self.priority = priority
    self.dependencies = DependencyValues.current
    self.reporters = IssueReporters.scoped
    self.body = body
  }

  private init(
    copying other: RunOperation<some Sendable>,
    body: @escaping @Sendable (EffectContext<Action>) async -> Void
  ) {
    self.priority = other.priority
    self.dependencies = other.dependencies
    self.reporters = other.reporters
    self.body = body
  }

  /// The same operation with its context transformed (action embedding, state lifting).
  func transformed<NewAction>(
    _ transform: @escaping @Sendable (EffectContext<NewAction>) -> EffectContext<Action>
  ) -> RunOperation<NewAction> {
    let body = self.body
    return RunOperation<NewAction>(copying: self) { context in await body(transform(context)) }
  }

  /// Runs the body with the captured dependencies and issue reporters re-installed.
  func callAsFunction(_ context: EffectContext<Action>) async {
    await DependencyValues.install(dependencies) {
      await IssueReporters.$scoped.withValue(reporters) {
        await body(context)
      }
    }
    context.lifetime.markFinished()
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
    var handleError: (@Sendable (any Error, EffectContext<Action>) async -> Void)?
    if let handler {
      handleError = { error, context in await handler(error, Send(context)) }
    }
    return makeRun(
      priority: priority,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      operation: { context in try await operation(Send(context)) },
      catch: handleError
    )
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
    var handleError: (@Sendable (any Error, EffectContext<Action>) async -> Void)?
    if let handler {
      handleError = { error, context in
        await handler(error, Send(context), StateModifier<State>(context: context))
      }
    }
    return makeRun(
      priority: priority,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column),
      operation: { context in
        try await operation(Send(context), StateModifier<State>(context: context))
      },
      catch: handleError
    )
  }

  /// The one place a `.run` effect's errors are handled: cancellation ends it quietly, other
  /// errors go to `handler`, or are reported when there is none.
  private static func makeRun(
    priority: TaskPriority?,
    location: IssueLocation,
    operation: @escaping @Sendable (EffectContext<Action>) async throws -> Void,
    catch handler: (@Sendable (any Error, EffectContext<Action>) async -> Void)?
  ) -> Self {
    Self(
      .run(
        RunOperation(priority: priority) { context in
          do {
            try await operation(context)
          } catch {
            guard !isCancellation(error) else { return }
            if let handler {
              await handler(error, context)
            } else {
              reportUnhandled(error, location: location)
            }
          }
        }))
  }

  /// Cancellation ends an effect quietly, whatever error the cancelled work threw (URLSession,
  /// for one, throws `URLError.cancelled`).
  private static func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || Task.isCancelled
  }

  private static func reportUnhandled(_ error: any Error, location: IssueLocation) {
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
