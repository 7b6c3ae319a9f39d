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
    let result = publicationOutcome()
    outcome.lines += result.lines
    outcome.failed = result.failed
    return outcome
  }
}
