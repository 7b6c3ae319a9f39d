import WorkspaceDemoFeature
import WorkspaceJournal

/// After a restart: the publication attempt a crash interrupted is sent again, with its key.
extension CommandExecutor {
  /// Sends the interrupted attempt again (same request, so the same idempotency key: the
  /// backend answers the record if the attempt had created it, or creates it now), when the
  /// person admitted now is the one who began it, the workspace is ready on the attempt's
  /// baseline with the same changes and the grant allows publishing. Otherwise says why it
  /// waits; the next sign-in that admits its owner (see ``signIn(_:_:)``), or `retry`, sends
  /// it later. Another person is shown it, never made to send it. `nil` when nothing was
  /// interrupted.
  func reconcileInterruptedPublication() async -> CommandOutcome? {
    guard let intent = host.pendingPublication else { return nil }
    var outcome = CommandOutcome.info("interrupted publication: " + Describe.intent(intent))
    if let owner = intent.owner, let person = host.context?.identity.rawValue, person != owner {
      outcome.info("not sent: \(owner) began it, and only \(owner) may send it")
      return outcome
    }
    guard state.editing.content.form.retryableRequest == intent.request,
      let session = host.session, session.source.workspace == intent.workspace,
      session.baseline == intent.baseline
    else {
      let baseline = Describe.reference(intent.baseline)
      outcome.info("not sent again: the workspace is not ready on \(baseline)")
      return outcome
    }
    guard let changes = await host.localChanges(),
      ChangeDigest.of(changes) == intent.changes
    else {
      outcome.info("not sent again: the working copy changed since; 'retry' sends it anyway")
      return outcome
    }
    if let refusal = authoring(.publish, to: "publish") {
      outcome.info(
        "not sent again yet: \(refusal.reason); the next sign-in that admits sends it "
          + "(or 'retry')")
      return outcome
    }
    await host.send(.editing(.content(.retryProposal)))
    let result = await resentOutcome()
    outcome.lines += result.lines
    outcome.failed = result.failed
    return outcome
  }

  /// The outcome of an attempt sent again. A resend answers the record the first send may
  /// have created — but the process that sent it may have ended before it checked the head
  /// rule, so the ✓ ("proposal … target published@r1") is given only while the branch is still
  /// at the record's target; otherwise the line says exactly what is known.
  func resentOutcome() async -> CommandOutcome {
    let outcome = publicationOutcome()
    guard case .published(let record) = state.editing.content.form,
      let head = await host.catalogue.head(of: record.target.branch),
      head != record.target.revision
    else { return outcome }
    return .info(
      "proposal \(Describe.record(record)) exists, but \(record.target.branch) is at "
        + "\(Describe.abbreviatingHashes(head)) now: whether it moved before the proposal was "
        + "made is not known (the first send ended before it checked)")
  }
}
