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
        await send(.delegate(.refreshFailed(WorkspaceFailure(violation))))
        return
      }
      await state.modify { $0.install(refreshed, onBranch: session.baseline.branch) }
    } catch: { error, send, _ in
      if isAuthorizationInvalidated(error) {
        await authorizationLost(send)
      } else {
        await send(.delegate(.refreshFailed(WorkspaceFailure(error))))
      }
    }
    .cancellable(id: WorkspaceOperation.refresh, cancelInFlight: true)
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
        await send(.delegate(.branchSelectionFailed(requested: branch, WorkspaceFailure(violation))))
        return
      }
      await state.modify { $0.install(selected, onBranch: nil) }
      await send(.delegate(.branchSelected(selected.baseline)))
    } catch: { error, send, _ in
      if isAuthorizationInvalidated(error) {
        await authorizationLost(send)
      } else {
        await send(.delegate(.branchSelectionFailed(requested: branch, WorkspaceFailure(error))))
      }
    }
    // A refresh of the branch being replaced is moot.
    return .merge(
      .cancel(id: WorkspaceOperation.refresh),
      selection.cancellable(id: WorkspaceOperation.selection, cancelInFlight: true)
    )
  }
}

extension WorkspaceState {
  /// Installs a refreshed or selected session as one coherent pair. With `branch`, only when
  /// the session is still on that branch (a refresh that raced a selection is dropped).
  mutating func install(_ answered: WorkspaceSession<Source>, onBranch branch: BranchName?) {
    guard case .ready(let session) = availability else { return }
    if let branch, session.baseline.branch != branch { return }
    availability = .ready(answered)
  }
}
