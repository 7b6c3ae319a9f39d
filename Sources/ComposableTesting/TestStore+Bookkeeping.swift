import ComposableCore

// What the store recorded, how it waits for progress, and how it reports.

extension TestStore {
  // MARK: Bookkeeping

  func didProcess(_ item: StoreEngine<State, Action>.Item, state: State) {
    monitor.noteActivity()
    switch item {
    case .action(_, ActionOrigin.external):
      sentSnapshot = state
    case .action(let action, ActionOrigin.effect):
      received.append(Received(item: .action(action), state: state))
      syncLedger()
    case .modification(let location):
      received.append(Received(item: .modification(location), state: state))
      syncLedger()
    }
    wake()
  }

  func waitForItem(matching expectation: Expectation, timeout: Duration, at location: IssueLocation)
    async -> Bool
  {
    var deadline = ProgressDeadline(timeout: timeout)
    while true {
      let available =
        exhaustivity == .on
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
  func waitForProgress(until deadline: ContinuousClock.Instant) async -> Bool {
    guard waiter == nil else {
      fail(
        "Two waits on this test store ran at once (receive or finish from concurrent tasks); await them one after the other.",
        at: creation
      )
      return false
    }
    lastWaiterID += 1
    let id = lastWaiterID
    let timer = DeadlineTimer(deadline: deadline) { [weak self] in
      Task { @MainActor in self?.resumeWaiter(id, progressed: false) }
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
      lines.append(
        """
        Effects still running were started by:
        \(running.map { "  • \($0)" }.joined(separator: "\n"))
        If they wait on a TestClock, advance it; if they never end, cancel them in the feature.
        """)
    }
    if !cancelled.isEmpty {
      lines.append(
        """
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

  func wake() {
    if let waiter { resumeWaiter(waiter.id, progressed: true) }
  }

  func resumeWaiter(_ id: UInt64, progressed: Bool) {
    guard let waiter, waiter.id == id else { return }
    self.waiter = nil
    waiter.continuation.resume(returning: progressed)
  }

  /// Asserts the change from `before` (the last asserted state) to `after`. Exhaustive: `update`
  /// applied to `before` must give `after`. Otherwise only what `update` sets is checked (it is
  /// applied to `after`), and what an exhaustive check would have found is shown when
  /// `showSkippedAssertions` is on.
  func assertChange(
    from before: State,
    to after: State,
    _ update: ((inout State) throws -> Void)?,
    _ moment: @autoclosure () -> String,
    at location: IssueLocation
  ) {
    func expectation(from start: State) -> State? {
      var expected = start
      do {
        try update?(&expected)
      } catch {
        fail("The state assertion \(moment()) threw: \(error)", at: location)
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
            "State was not as expected \(moment()): (−expected +actual)\n\(diff(expected))",
            at: location)
          return
        }
      }
      if exhaustivity == .off(showSkippedAssertions: true),
        let exhaustive = expectation(from: before), exhaustive != after
      {
        skipped(
          """
          Skipped assertions: state changes \(moment()) were not asserted: (−expected +actual)
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
        "State was not as expected \(moment()): (−expected +actual)\n\(diff(expected))",
        at: location)
    } else if update != nil, after == before {
      fail(
        """
        Expected state to change \(moment()), but no change occurred. If no change is expected, \
        omit the assertion closure.
        """,
        at: location
      )
    }
  }

  func activateReporters() {
    context.reporters = IssueReporters.scoped ?? defaultReporters
  }

  func fail(_ message: String, at location: IssueLocation) {
    report(message, at: location, to: context.reporters)
  }

  /// Shows an assertion the store skipped, as a known issue, when the test asked for that
  /// (`.off(showSkippedAssertions: true)`).
  func skipped(_ message: String, at location: IssueLocation) {
    guard exhaustivity == .off(showSkippedAssertions: true) else { return }
    reportSkipped(message, at: location, to: context.reporters)
  }

  func syncLedger() {
    let unhandled = received.map { $0.description }
    let exhaustivity = self.exhaustivity
    ledger.withValue {
      $0.unhandled = unhandled
      $0.exhaustivity = exhaustivity
    }
  }

  struct Received {
    enum Item {
      case action(Action)
      case modification(IssueLocation)
    }
    let item: Item
    let state: State
    /// The item described once, when it arrives: the ledger copies the descriptions of every
    /// unasserted item whenever the list changes.
    let description: String

    init(item: Item, state: State) {
      self.item = item
      self.state = state
      switch item {
      case .action(let action): description = "\(action)"
      case .modification(let location): description = "a state modification (\(location))"
      }
    }
  }

  enum Expectation {
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
struct Ledger: Sendable {
  var unhandled: [String] = []
  var exhaustivity = Exhaustivity.on
}

func report(_ message: String, at location: IssueLocation, to reporters: [any IssueReporter]) {
  for reporter in reporters { reporter.reportIssue(message, at: location) }
}

func reportSkipped(
  _ message: String, at location: IssueLocation, to reporters: [any IssueReporter]
) {
  for reporter in reporters { reporter.reportKnownIssue(message, at: location) }
}

func bulleted(_ items: [String]) -> String {
  items.map { "  • \($0)" }.joined(separator: "\n")
}
