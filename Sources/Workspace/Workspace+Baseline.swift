import ComposableCore

extension Workspace {
  func refreshBaseline(_ state: State) -> Effect<Action> {
    guard let session = readySession(state, for: "refreshBaseline") else { return .none }
    let client = self.client
    return .run(modifying: State.self) { send, state in
      let refreshed = try await client.refreshBaseline(session.source, session.baseline)
      guard refreshed.baseline.branch == session.baseline.branch else {
        let violation = WorkspaceContractViolation(
          """
          Invalid WorkspaceClient output: refreshBaseline must keep the branch identity, but \
          refreshing \(session.baseline) answered \(refreshed.baseline). It was not installed.
          """
        )
        reportIssue(violation.message)
        await send(.delegate(.refreshFailed(.invalidClientOutput)))
        return
      }
      let outcome = LockIsolated(InstallOutcome.installed)
      await state.modify { state in
        outcome.setValue(
          state.install(refreshed, replacing: session.source, onBranch: session.baseline.branch))
      }
      if outcome.current == .sourceChanged {
        await send(.delegate(.refreshFailed(.sourceChangedMeanwhile(during: "refreshing"))))
      }
    } catch: { error, send, _ in
      await send(.delegate(.refreshFailed(WorkspaceFailure(error))))
      if isAuthorizationInvalidated(error) { await authorizationLost(send) }
    }
    .cancellable(id: WorkspaceOperation.refresh(of: state.id), cancelInFlight: true)
  }

  func selectBranch(_ branch: BranchName, _ state: State) -> Effect<Action> {
    guard let session = readySession(state, for: "selectBranch(\(branch))") else { return .none }
    let client = self.client
    let selection = Effect<Action>.run(modifying: State.self) { send, state in
      let selected = try await client.selectBranch(session.source, branch)
      guard selected.baseline.branch == branch else {
        let violation = WorkspaceContractViolation(
          """
          Invalid WorkspaceClient output: selectBranch must return exactly the requested branch, \
          but selecting \(branch) answered \(selected.baseline). It was not installed.
          """
        )
        reportIssue(violation.message)
        await send(.delegate(.branchSelectionFailed(requested: branch, .invalidClientOutput)))
        return
      }
      let outcome = LockIsolated(InstallOutcome.installed)
      await state.modify { state in
        outcome.setValue(state.install(selected, replacing: session.source, onBranch: nil))
      }
      switch outcome.current {
      case .installed:
        await send(.delegate(.branchSelected(selected.baseline)))
      case .sourceChanged:
        await send(
          .delegate(
            .branchSelectionFailed(
              requested: branch, .sourceChangedMeanwhile(during: "selecting \(branch)"))))
      case .superseded:
        break
      }
    } catch: { error, send, _ in
      await send(.delegate(.branchSelectionFailed(requested: branch, WorkspaceFailure(error))))
      if isAuthorizationInvalidated(error) { await authorizationLost(send) }
    }
    // A refresh of the branch being replaced is moot.
    return .merge(
      .cancel(id: WorkspaceOperation.refresh(of: state.id)),
      selection.cancellable(id: WorkspaceOperation.selection(of: state.id), cancelInFlight: true)
    )
  }
}

extension WorkspaceState {
  /// Installs a refreshed or selected session as one coherent pair. With `branch`, only when
  /// the session is still on that branch (a refresh that raced a selection is dropped). When the
  /// source is a value (`Equatable`) that was edited after the operation started, the answer —
  /// computed from the older value — is not installed, so no edit is lost.
  mutating func install(
    _ answered: WorkspaceSession<Source>,
    replacing sent: Source,
    onBranch branch: BranchName?
  ) -> InstallOutcome {
    guard case .ready(let session) = availability else { return .superseded }
    if let branch, session.baseline.branch != branch { return .superseded }
    if valuesDiffer(sent, session.source) { return .sourceChanged }
    availability = .ready(answered)
    return .installed
  }
}

/// What became of a refresh or selection answer.
enum InstallOutcome: Sendable, Equatable {
  case installed
  /// The workspace moved on (not ready, or another branch): the answer is moot.
  case superseded
  /// The writable content changed while the operation ran.
  case sourceChanged
}

/// Whether two values are known to differ: `false` when equal or not `Equatable` (a handle).
private func valuesDiffer<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
  guard let lhs = lhs as? any Equatable else { return false }
  func differ<E: Equatable>(_ lhs: E) -> Bool { (rhs as? E).map { $0 != lhs } ?? false }
  return differ(lhs)
}

extension WorkspaceFailure {
  /// What the requester of an operation hears when the client broke the integration contract.
  /// The client's output itself goes only to `reportIssue`: it never becomes UI state.
  static let invalidClientOutput = WorkspaceFailure(
    kind: .invalidIntegratorOutput,
    message: "the workspace service answered something invalid; nothing was installed")

  /// The writable content was edited while an operation ran on an older copy of it.
  static func sourceChangedMeanwhile(during operation: String) -> WorkspaceFailure {
    WorkspaceFailure(
      message: "the working copy changed while \(operation); nothing was installed — try again")
  }
}
