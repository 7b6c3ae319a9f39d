import ComposableCore

extension Workspace {
  func captureChanges(_ state: State) -> Effect<Action> {
    guard let session = readySession(state, for: "captureChanges") else { return .none }
    let client = self.client
    return .run { send in
      let changes = try await client.captureChanges(session.source, session.baseline)
      await send(.delegate(.changesCaptured(changes)))
    } catch: { error, send in
      if isAuthorizationInvalidated(error) {
        await authorizationLost(send)
      } else {
        await send(.delegate(.captureFailed(WorkspaceFailure(error))))
      }
    }
    .cancellable(id: WorkspaceOperation.capture, cancelInFlight: true)
  }

  func publishProposal(_ request: ProposalRequest, _ state: State) -> Effect<Action> {
    guard let session = readySession(state, for: "publishProposal") else { return .none }
    let client = self.client
    let clock = self.clock
    let retry = publicationRetry
    return .run { send in
      let changes = try await client.captureChanges(session.source, session.baseline)
      guard !changes.isEmpty else {
        await send(.delegate(.publication(.noChanges)))
        return
      }
      let record = try await publish(
        changes, of: session, request: request, client: client, clock: clock, retry: retry
      )
      // Commit point: the record exists. Report it; never install it.
      guard record.target == session.baseline else {
        let violation = WorkspaceContractViolation(
          """
          Invalid WorkspaceClient output: publishProposal must answer a record targeting the \
          installed baseline \(session.baseline), but answered \(record).
          """
        )
        reportIssue(violation.message)
        await send(.delegate(.publication(.failed(WorkspaceFailure(violation)))))
        return
      }
      // Past the commit point the record is reported even if this work was interrupted
      // meanwhile: losing it would make the form retry under a new key and duplicate it.
      await send.deliver(.delegate(.publication(.published(record))))
    } catch: { error, send in
      if isAuthorizationInvalidated(error) {
        await authorizationLost(send)
      } else if let mismatch = error as? WorkspaceHeadMismatch {
        await send(.delegate(.publication(.headMoved(mismatch))))
      } else {
        await send(.delegate(.publication(.failed(WorkspaceFailure(error)))))
      }
    }
    .cancellable(id: WorkspaceOperation.publication, cancelInFlight: true)
  }
}

/// Calls `publishProposal`, retrying transient errors after each of `retry.delays`, always with
/// the same request (and so the same idempotency key).
private func publish<Source, ChangeSet>(
  _ changes: ChangeSet,
  of session: WorkspaceSession<Source>,
  request: ProposalRequest,
  client: WorkspaceClient<Source, ChangeSet>,
  clock: any Clock<Duration>,
  retry: PublicationRetryPolicy
) async throws -> ProposalRecord {
  var delays = retry.delays[...]
  while true {
    do {
      return try await client.publishProposal(session.source, session.baseline, changes, request)
    } catch let error as any WorkspaceTransientError {
      guard let delay = delays.popFirst() else { throw error }
      try await clock.sleep(for: delay)
    }
  }
}
