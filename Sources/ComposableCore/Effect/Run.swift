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

  private init(copying other: RunOperation<some Sendable>, body: @escaping @Sendable (EffectContext<Action>) async -> Void) {
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
    context.lifetime.markStarted()
    await DependencyValues.$current.withValue(dependencies) {
      await IssueReporters.$scoped.withValue(reporters) {
        await EffectLifetime.$current.withValue(context.lifetime) {
          await body(context)
        }
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
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    return Self(.run(RunOperation(priority: priority) { context in
      let send = Send(context: context)
      do {
        try await operation(send)
      } catch {
        guard !isCancellation(error) else { return }
        if let handler {
          await handler(error, send)
        } else {
          reportUnhandled(error, location: location)
        }
      }
    }))
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
    operation: @escaping @Sendable (_ send: Send<Action>, _ state: StateModifier<State>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>, _ state: StateModifier<State>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    return Self(.run(RunOperation(priority: priority) { context in
      let send = Send(context: context)
      let state = StateModifier<State>(context: context)
      do {
        try await operation(send, state)
      } catch {
        guard !isCancellation(error) else { return }
        if let handler {
          await handler(error, send, state)
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
