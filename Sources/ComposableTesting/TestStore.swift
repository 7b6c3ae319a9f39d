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

  let engine: StoreEngine<State, Action>
  let monitor: EffectMonitor
  let context: TestContext
  let defaultReporters: [any IssueReporter]
  let ledger = LockIsolated(Ledger())
  let creation: IssueLocation
  var expectedState: State
  var received: [Received] = []
  var sentSnapshot: State?
  var waiter: (id: UInt64, continuation: CheckedContinuation<Bool, Never>)?
  var lastWaiterID: UInt64 = 0

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: the state the feature starts from.
  ///   - reducer: the feature under test.
  ///   - prepareDependencies: overrides for this test. Everything else answers its
  ///     `testValue`.
  ///   - timeout: the store's ``timeout``.
  ///   - fileID: where failures found when the store is released (unasserted items, effects
  ///     still running) are reported; the caller's location by default.
  ///   - filePath: as `fileID`.
  ///   - line: as `fileID`.
  ///   - column: as `fileID`.
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
}

extension TestStore: EffectMonitorOwner {
  func monitorFailed(_ message: String, at location: IssueLocation) {
    fail(message, at: location)
  }
}
