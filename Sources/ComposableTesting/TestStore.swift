import ComposableCore

/// Drives a feature in a test and asserts everything it does: each state change an action
/// causes, each action its effects send back, each change effects apply directly, and that no
/// work is left over.
///
/// ```swift
/// @MainActor @Test func refresh() async {
///   let store = TestStore(initialState: Feature.State()) {
///     Feature()
///   } withDependencies: {
///     $0.numbers = NumbersClient(fetch: { 42 })
///   }
///   await store.send(.refreshTapped)
///   await store.receiveModification { $0.number = 42 }
/// }
/// ```
///
/// Exhaustive by default: a state change you did not assert, an action or modification you
/// did not receive, or an effect still running when the store is released fails the test with
/// a message that says how to fix it. Set ``exhaustivity`` to `.off` for integration-style
/// stories that assert only what matters, or to `.off(showSkippedAssertions: true)` to see
/// what they skip as known issues.
///
/// Waiting is exact, never a guess: the store runs its effects on an executor it watches, so
/// `send` and `receive` return only once every effect is suspended (asleep on a ``TestClock``,
/// awaiting something, or finished) — an effect that works before its first sleep is never
/// missed by a following `clock.advance`. Items and finished effects are signalled, never
/// polled. ``timeout`` only bounds each wait: a wait that would hang fails the test instead,
/// naming what still runs.
@MainActor
public final class TestStore<State: Equatable, Action: Sendable> {
  /// How strictly the store asserts. Defaults to `.on`.
  public var exhaustivity: Exhaustivity = .on {
    didSet { syncLedger() }
  }

  /// How long a wait (`send` for its effects to suspend, `receive`, `finish`) may go without any
  /// progress before it fails the test; a wait that keeps progressing without ending fails
  /// after four times that. Defaults to five seconds. Waits end as soon as the awaited signal
  /// arrives, so passing tests never wait for it, and progress (an item, an effect that did
  /// something) moves the deadline, so a main actor slowed down by the rest of a large parallel
  /// suite does not fail a correct story.
  public var timeout: Duration

  /// The dependencies every reduce and effect of this store runs with. Changing them affects
  /// actions sent afterwards; effects already running keep the values of the reduce that
  /// started them.
  ///
  /// ```swift
  /// store.dependencies.date.now = Date(timeIntervalSince1970: 60)
  /// await store.send(.save) { $0.savedAt = Date(timeIntervalSince1970: 60) }
  /// ```
  ///
  /// A ``TestClock`` installed here is watched like one given at creation.
  public var dependencies: DependencyValues {
    get { context.dependencies }
    set {
      context.dependencies = newValue
      if let clock = newValue.clock as? TestClock { clock.attach(monitor) }
    }
  }

  /// The store's current state (including changes not yet asserted).
  public var state: State { engine.state }

  private let engine: StoreEngine<State, Action>
  private let monitor: EffectMonitor
  private let context: TestContext
  private let defaultReporters: [any IssueReporter]
  private let ledger = LockIsolated(Ledger())
  private let creation: IssueLocation
  private var expectedState: State
  private var received: [Received] = []
  private var sentSnapshot: State?
  private var waiter: (id: UInt64, continuation: CheckedContinuation<Bool, Never>)?
  private var lastWaiterID: UInt64 = 0

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - prepareDependencies: overrides for this test. Everything else answers its
  ///     `testValue`.
  public init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    var dependencies = DependencyValues.current
    dependencies.context = .test
    prepareDependencies(&dependencies)
    let reporters = IssueReporters.scoped ?? [TestIssueReporter()]
    let context = TestContext(dependencies: dependencies, reporters: reporters)
    self.context = context
    self.defaultReporters = reporters
    self.timeout = timeout
    self.creation = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.expectedState = initialState
    let engine = StoreEngine(
      initialState: initialState, reducer: TestReducer(base: reducer(), context: context),
      dependencies: dependencies)
    let monitor = EffectMonitor()
    self.engine = engine
    self.monitor = monitor
    monitor.owner = self
    engine.recordsEffectOrigins = true
    engine.startTask = { priority, operation in
      monitor.startTask(priority: priority, operation: operation)
    }
    engine.didProcess = { [weak self] item, state in self?.didProcess(item, state: state) }
    engine.registry.onEffectsChange { [weak self] in
      monitor.noteActivity()
      self?.syncLedger()
      self?.wake()
    }
    if let clock = dependencies.clock as? TestClock { clock.attach(monitor) }
    syncLedger()
  }

  deinit {
    let ledger = ledger.current
    let origins = engine.registry.unfinishedOrigins.running
    engine.registry.cancelAllSilently()
    switch ledger.exhaustivity {
    case .on:
      if !ledger.unhandled.isEmpty {
        report(
          """
          The store received \(ledger.unhandled.count) item(s) the test never asserted:
          \(bulleted(ledger.unhandled))
          Assert each with `await store.receive(…)` or `await store.receiveModification { … }`, \
          or set `store.exhaustivity = .off`.
          """,
          at: creation, to: defaultReporters
        )
      }
      if !origins.isEmpty {
        report(
          """
          \(origins.count) effect(s) were still running when the test ended, started by:
          \(bulleted(origins))
          Await them with `await store.finish()`, cancel them in the feature (for example with \
          `.cancel(id:)`), or call `store.skipInFlightEffects()` where leaving them is intended.
          """,
          at: creation, to: defaultReporters
        )
      }
    case .off(showSkippedAssertions: true):
      if !ledger.unhandled.isEmpty {
        reportSkipped(
          """
          Skipped assertions: the store received \(ledger.unhandled.count) item(s) the test did \
          not assert:
          \(bulleted(ledger.unhandled))
          """,
          at: creation, to: defaultReporters
        )
      }
      if !origins.isEmpty {
        reportSkipped(
          """
          Skipped assertions: \(origins.count) effect(s) were still running when the test ended, \
          started by:
          \(bulleted(origins))
          """,
          at: creation, to: defaultReporters
        )
      }
    case .off(showSkippedAssertions: false):
      break
    }
  }

  // MARK: Sending

  /// Sends `action` and asserts the state change it causes.
  ///
  /// - Parameter updateStateToExpectedResult: mutate the state before the action into the state
  ///   you expect after it. Omit it when the action changes nothing.
  /// - Returns: the task of the action's effects; its ``TestStoreTask/finish(timeout:fileID:filePath:line:column:)``
  ///   is bounded by the store's ``timeout``.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    activateReporters()
    if !received.isEmpty {
      if exhaustivity == .on {
        fail(
          """
          Must handle \(received.count) received item(s) before sending \(action):
          \(bulleted(received.map(\.description)))
          Assert them with `await store.receive(…)` / `receiveModification`, or set \
          `store.exhaustivity = .off`.
          """,
          at: location
        )
      } else {
        skipped(
          """
          Skipped assertions: \(received.count) received item(s) were not asserted before \
          sending \(action):
          \(bulleted(received.map(\.description)))
          """,
          at: location
        )
      }
      skipReceivedActions()
    }
    let before = expectedState
    sentSnapshot = nil
    let task = engine.send(action)
    let after = sentSnapshot ?? engine.state
    assertChange(from: before, to: after, updateStateToExpectedResult, "after sending \(action)", at: location)
    expectedState = after
    // Every effect the action started has reached a suspension (its first sleep, say) before
    // the test goes on to move a clock. (Nothing to wait for when no effect runs.)
    if engine.registry.count > 0 {
      await monitor.waitUntilSuspended(timeout: timeout, at: location)
    }
    return TestStoreTask(
      rawValue: task, timeout: timeout,
      report: { [weak self] message, location in self?.fail(message, at: location) },
      describeRunning: { [weak self] in self?.describeRunningEffects() ?? "" }
    )
  }

  // MARK: Receiving

  /// Asserts the next item from an effect is `expected`, and the state change it caused.
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receive(
      .action("\(expected)") { $0 == expected }, timeout: timeout,
      assert: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts the next item from an effect is an action of the case `casePath`.
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      .action("an action matching the case path") { casePath.extract(from: $0) != nil },
      timeout: timeout, assert: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts the next item from an effect is an action satisfying `predicate`.
  public func receive(
    matching predicate: @escaping (Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      .action("an action matching the predicate", predicate), timeout: timeout,
      assert: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts the next item from an effect is a direct state modification
  /// (`state.modify { … }`), and the change it made.
  public func receiveModification(
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      .modification, timeout: timeout, assert: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  private func receive(
    _ expectation: Expectation,
    timeout: Duration?,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: IssueLocation
  ) async {
    activateReporters()
    guard await waitForItem(matching: expectation, timeout: timeout ?? self.timeout, at: location)
    else { return }
    if exhaustivity != .on {
      var skippedItems: [String] = []
      while let first = received.first, !expectation.matches(first.item) {
        skippedItems.append(received.removeFirst().description)
      }
      if !skippedItems.isEmpty {
        skipped(
          """
          Skipped assertions: \(skippedItems.count) item(s) were received before \
          \(expectation.description) and not asserted:
          \(bulleted(skippedItems))
          """,
          at: location
        )
      }
    }
    guard !received.isEmpty else { return }
    let next = received.removeFirst()
    syncLedger()
    guard expectation.matches(next.item) else {
      fail(
        "Expected to receive \(expectation.description), but received \(next.description).",
        at: location
      )
      expectedState = next.state
      return
    }
    assertChange(
      from: expectedState, to: next.state, updateStateToExpectedResult,
      "after receiving \(next.description)", at: location)
    expectedState = next.state
    // The effect that sent this item goes on (to its next sleep, or to its end) before the test
    // does: a clock moved next finds it asleep, and the end-of-test check does not count an
    // effect that had nothing left to do.
    if engine.registry.count > 0 {
      await monitor.waitUntilSuspended(timeout: timeout ?? self.timeout, at: location)
    }
  }

  // MARK: Finishing

  /// Waits until every effect has finished. Fails, listing what started them, when some are
  /// still running after `timeout`.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    activateReporters()
    let limit = timeout ?? self.timeout
    var deadline = ProgressDeadline(timeout: limit)
    while engine.registry.count > 0 {
      guard await waitForProgress(until: deadline.instant) else {
        fail(
          """
          Expected effects to finish within \(limit), but \(engine.registry.count) are still \
          running. \(describeRunningEffects())
          """,
          at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        return
      }
      deadline.progressed()
    }
  }

  /// Drops received items the test does not want to assert.
  public func skipReceivedActions() {
    received.removeAll()
    expectedState = engine.state
    syncLedger()
  }

  /// Cancels every running effect, so the end-of-test check does not report them.
  public func skipInFlightEffects() {
    engine.cancelAllEffects()
  }

  /// Whether an effect the root reducer made cancellable with `id` is running.
  public func isEffectInFlight(_ id: some Hashable & Sendable) -> Bool {
    engine.isInFlight(id, path: [])
  }

  // MARK: Bookkeeping

  private func didProcess(_ item: StoreEngine<State, Action>.Item, state: State) {
    monitor.noteActivity()
    switch item {
    case .action(_, ActionOrigin.external):
      sentSnapshot = state
    case .action(let action, ActionOrigin.effect):
      received.append(Received(item: .action(action), state: state))
    case .modification(let location):
      received.append(Received(item: .modification(location), state: state))
    }
    syncLedger()
    wake()
  }

  private func waitForItem(matching expectation: Expectation, timeout: Duration, at location: IssueLocation) async -> Bool {
    var deadline = ProgressDeadline(timeout: timeout)
    while true {
      let available = exhaustivity == .on
        ? !received.isEmpty
        : received.contains { expectation.matches($0.item) }
      if available { return true }
      guard engine.registry.count > 0 else {
        fail(
          "Expected to receive \(expectation.description), but nothing was received and no effects are running.",
          at: location
        )
        return false
      }
      guard await waitForProgress(until: deadline.instant) else {
        fail(
          """
          Expected to receive \(expectation.description), but nothing arrived within \(timeout). \
          \(describeRunningEffects())
          """,
          at: location
        )
        return false
      }
      deadline.progressed()
    }
  }

  /// Suspends until an item is received or an effect finishes (`true`), or `deadline` passes
  /// (`false`).
  private func waitForProgress(until deadline: ContinuousClock.Instant) async -> Bool {
    guard waiter == nil else {
      fail(
        "Two waits on this test store ran at once (receive or finish from concurrent tasks); await them one after the other.",
        at: creation
      )
      return false
    }
    lastWaiterID += 1
    let id = lastWaiterID
    let timer = Task { [weak self] in
      try? await Task.sleep(until: deadline, clock: .continuous)
      self?.resumeWaiter(id, progressed: false)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      waiter = (id, continuation)
    }
  }

  /// What still runs, for a wait that timed out, with the way forward.
  func describeRunningEffects() -> String {
    let (running, cancelled) = engine.registry.unfinishedOrigins
    var lines: [String] = []
    if !running.isEmpty {
      lines.append("""
        Effects still running were started by:
        \(running.map { "  • \($0)" }.joined(separator: "\n"))
        If they wait on a TestClock, advance it; if they never end, cancel them in the feature.
        """)
    }
    if !cancelled.isEmpty {
      lines.append("""
        Effects cancelled but not stopped yet (their work does not respond to cancellation) \
        were started by:
        \(cancelled.map { "  • \($0)" }.joined(separator: "\n"))
        """)
    }
    guard !lines.isEmpty else {
      return "No effect's work is still running; only its completion is pending."
    }
    return lines.joined(separator: "\n")
  }

  private func wake() {
    if let waiter { resumeWaiter(waiter.id, progressed: true) }
  }

  private func resumeWaiter(_ id: UInt64, progressed: Bool) {
    guard let waiter, waiter.id == id else { return }
    self.waiter = nil
    waiter.continuation.resume(returning: progressed)
  }

  /// Asserts the change from `before` (the last asserted state) to `after`. Exhaustive: `update`
  /// applied to `before` must give `after`. Otherwise only what `update` sets is checked (it is
  /// applied to `after`), and what an exhaustive check would have found is shown when
  /// `showSkippedAssertions` is on.
  private func assertChange(
    from before: State,
    to after: State,
    _ update: ((inout State) throws -> Void)?,
    _ moment: String,
    at location: IssueLocation
  ) {
    func expectation(from start: State) -> State? {
      var expected = start
      do {
        try update?(&expected)
      } catch {
        fail("The state assertion \(moment) threw: \(error)", at: location)
        return nil
      }
      return expected
    }
    func diff(_ expected: State) -> String {
      LineDiff.render(expected: StateDump.lines(of: expected), actual: StateDump.lines(of: after))
    }
    if exhaustivity != .on {
      if update != nil {
        guard let expected = expectation(from: after) else { return }
        if expected != after {
          fail(
            "State was not as expected \(moment): (−expected +actual)\n\(diff(expected))",
            at: location)
          return
        }
      }
      if exhaustivity == .off(showSkippedAssertions: true),
        let exhaustive = expectation(from: before), exhaustive != after
      {
        skipped(
          """
          Skipped assertions: state changes \(moment) were not asserted: (−expected +actual)
          \(diff(exhaustive))
          """,
          at: location
        )
      }
      return
    }
    guard let expected = expectation(from: before) else { return }
    if expected != after {
      fail(
        "State was not as expected \(moment): (−expected +actual)\n\(diff(expected))",
        at: location)
    } else if update != nil, after == before {
      fail(
        """
        Expected state to change \(moment), but no change occurred. If no change is expected, \
        omit the assertion closure.
        """,
        at: location
      )
    }
  }

  private func activateReporters() {
    context.reporters = IssueReporters.scoped ?? defaultReporters
  }

  func fail(_ message: String, at location: IssueLocation) {
    report(message, at: location, to: context.reporters)
  }

  /// Shows an assertion the store skipped, as a known issue, when the test asked for that
  /// (`.off(showSkippedAssertions: true)`).
  private func skipped(_ message: String, at location: IssueLocation) {
    guard exhaustivity == .off(showSkippedAssertions: true) else { return }
    reportSkipped(message, at: location, to: context.reporters)
  }

  private func syncLedger() {
    let unhandled = received.map(\.description)
    let exhaustivity = self.exhaustivity
    ledger.withValue {
      $0.unhandled = unhandled
      $0.exhaustivity = exhaustivity
    }
  }

  private struct Received {
    enum Item {
      case action(Action)
      case modification(IssueLocation)
    }
    let item: Item
    let state: State

    var description: String {
      switch item {
      case .action(let action): "\(action)"
      case .modification(let location): "a state modification (\(location))"
      }
    }
  }

  private enum Expectation {
    case action(String, (Action) -> Bool)
    case modification

    var description: String {
      switch self {
      case .action(let description, _): description
      case .modification: "a state modification"
      }
    }

    func matches(_ item: Received.Item) -> Bool {
      switch (self, item) {
      case (.action(_, let predicate), .action(let action)): predicate(action)
      case (.modification, .modification): true
      default: false
      }
    }
  }
}

/// What the end-of-test check needs, readable from the nonisolated deinitializer.
private struct Ledger: Sendable {
  var unhandled: [String] = []
  var exhaustivity = Exhaustivity.on
}

private func report(_ message: String, at location: IssueLocation, to reporters: [any IssueReporter]) {
  for reporter in reporters { reporter.reportIssue(message, at: location) }
}

private func reportSkipped(
  _ message: String, at location: IssueLocation, to reporters: [any IssueReporter]
) {
  for reporter in reporters { reporter.reportKnownIssue(message, at: location) }
}

private func bulleted(_ items: [String]) -> String {
  items.map { "  • \($0)" }.joined(separator: "\n")
}

/// The dependencies and reporters a test store's reducer runs with; mutable between sends.
/// Owned by one test store and used only on the main actor.
final class TestContext {
  var dependencies: DependencyValues
  var reporters: [any IssueReporter]

  init(dependencies: DependencyValues, reporters: [any IssueReporter]) {
    self.dependencies = dependencies
    self.reporters = reporters
  }
}

/// Runs the tested reducer with the test context installed.
struct TestReducer<Base: Reducer>: Reducer {
  let base: Base
  let context: TestContext

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    DependencyValues.$current.withValue(context.dependencies) {
      IssueReporters.$scoped.withValue(context.reporters) {
        base.reduce(into: &state, action: action)
      }
    }
  }
}

extension TestStore: EffectMonitorOwner {
  func monitorFailed(_ message: String, at location: IssueLocation) {
    fail(message, at: location)
  }
}
