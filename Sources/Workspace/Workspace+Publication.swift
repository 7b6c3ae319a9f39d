import ComposableCore

extension Workspace {
  func captureChanges(_ state: State) -> Effect<Action> {
    guard let session = readySession(state, for: "captureChanges") else { return .none }
    let client = self.client
    return .run { send in
      let changes = try await client.captureChanges(session.source, session.baseline)
      await send(.delegate(.changesCaptured(changes)))
    } catch: { error, send in
      await send(.delegate(.captureFailed(WorkspaceFailure(error))))
      if isAuthorizationInvalidated(error) { await authorizationLost(send) }
    }
    .cancellable(id: WorkspaceOperation.capture(of: state.id), cancelInFlight: true)
  }

  func publishProposal(_ request: ProposalRequest, _ state: State) -> Effect<Action> {
    guard let session = readySession(state, for: "publishProposal") else { return .none }
    let client = self.client
    let clock = self.clock
    let retry = publicationRetry
    return .run { send in
      let outcome: PublicationOutcome
      do {
        outcome = try await attemptPublication(
          request, of: session, client: client, clock: clock, retry: retry)
      } catch {
        // Cancelled: whoever cancelled told the requester (`interruptAuthorizedWork` posts
        // `.interrupted`; a newer attempt answers for itself). Nothing more to say.
        guard !Task.isCancelled, !(error is CancellationError) else { return }
        await send(.delegate(.publication(PublicationOutcome(failure: error))))
        if isAuthorizationInvalidated(error) { await authorizationLost(send) }
        return
      }
      // Past the commit point the record is reported even if this work was interrupted
      // meanwhile: losing it would make the form retry under a new key and duplicate it.
      await send.deliver(.delegate(.publication(outcome)))
    }
    .cancellable(id: WorkspaceOperation.publication(of: state.id), cancelInFlight: true)
  }
}

extension PublicationOutcome {
  /// The outcome of an attempt that threw `error` before the commit point.
  init(failure error: any Error) {
    if let mismatch = error as? WorkspaceHeadMismatch {
      self = .headMoved(mismatch)
    } else {
      self = .failed(WorkspaceFailure(error))
    }
  }
}

/// Captures, then publishes: `.noChanges` without a remote call for an empty change set,
/// otherwise the record (`.published`, or `.publishedInvalidRecord` when its target is not the
/// baseline — reported as an issue).
private func attemptPublication<Source, ChangeSet>(
  _ request: ProposalRequest,
  of session: WorkspaceSession<Source>,
  client: WorkspaceClient<Source, ChangeSet>,
  clock: any Clock<Duration>,
  retry: PublicationRetryPolicy
) async throws -> PublicationOutcome {
  let changes = try await client.captureChanges(session.source, session.baseline)
  guard !changes.isEmpty else { return .noChanges }
  // No external call starts after the attempt was interrupted.
  try Task.checkCancellation()
  let record = try await publish(
    changes, of: session, request: request, client: client, clock: clock, retry: retry)
  // Commit point: the record exists. Report it; never install it.
  guard record.target == session.baseline else {
    reportIssue(
      """
      Invalid WorkspaceClient output: publishProposal must answer a record targeting the \
      installed baseline \(session.baseline), but answered \(record). The record exists, so \
      it was delivered as publishedInvalidRecord; nothing of it was installed.
      """
    )
    return .publishedInvalidRecord(record)
  }
  return .published(record)
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
