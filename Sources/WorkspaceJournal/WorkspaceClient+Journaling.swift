import ComposableAuthoring
import ComposableWorkspace

extension WorkspaceClient where ChangeSet: Encodable {
  /// This client with every `publishProposal` journaled in `journal` (see
  /// ``PublicationJournal``): the attempt's intent — request, workspace, baseline, a digest of
  /// the changes and `owner` — is durable before the call goes out, and the record once the
  /// client answers it. The other endpoints are this client's.
  ///
  /// - A refusal that happens before any record can exist (`WorkspaceHeadMismatch`,
  ///   `WorkspaceAuthorizationError`) withdraws the intent. Any other failure leaves it
  ///   pending: its record may exist, and only the same request sent again can tell.
  /// - A call for an attempt the journal already answered answers that record without
  ///   calling the client again.
  /// - A call for an attempt another person began is refused with
  ///   ``PublicationIntentOwnedByAnotherPerson``, never sent.
  /// - When the intent cannot be written the call is not sent:
  ///   ``PublicationIntentNotDurable``.
  ///
  /// ```swift
  /// let journal = try PublicationJournal(storage: JournalFile(url: journalURL))
  /// app.dependency(git.client.journaling(journal, owner: { capability.current?.identity.rawValue }))
  /// ```
  ///
  /// - Parameters:
  ///   - journal: where the attempts are kept.
  ///   - owner: who is publishing now (the authoring identity in force); `nil` for an
  ///     application with one person.
  ///   - workspace: which workspace a source belongs to, recorded with the intent for an
  ///     application with several.
  ///   - checkpoint: called at each ``JournalingCheckpoint``; for crash-injection tests only.
  public func journaling(
    _ journal: PublicationJournal,
    owner: @escaping @Sendable () async -> String? = { nil },
    workspace: (@Sendable (Source) -> WorkspaceID)? = nil,
    checkpoint: (@Sendable (JournalingCheckpoint) -> Void)? = nil
  ) -> Self {
    var client = self
    let publish = publishProposal
    client.publishProposal = { source, baseline, changes, request in
      checkpoint?(.beforeIntent)
      let entry = try await journal.begin(
        PublicationIntent(
          request: request, workspace: workspace?(source), baseline: baseline,
          changes: ChangeDigest.of(changes), owner: await owner()))
      if let record = entry.record { return record }
      checkpoint?(.afterIntent)
      let record: ProposalRecord
      do {
        record = try await publish(source, baseline, changes, request)
      } catch let error
        where error is WorkspaceHeadMismatch || error is WorkspaceAuthorizationError
      {
        await journal.withdraw(request.idempotencyKey)
        throw error
      }
      checkpoint?(.afterAnswer)
      await journal.answer(request.idempotencyKey, with: record)
      checkpoint?(.afterRecord)
      return record
    }
    return client
  }

  /// ``journaling(_:owner:workspace:checkpoint:)-(_,()->String?,_,_)`` with the owner read from `capability`:
  /// the identity of the authoring capability in force when each attempt begins.
  ///
  /// - Parameters:
  ///   - journal: where the attempts are kept.
  ///   - capability: the provider Authoring publishes the validated capability into.
  ///   - workspace: which workspace a source belongs to.
  ///   - checkpoint: called at each ``JournalingCheckpoint``; for crash-injection tests only.
  public func journaling(
    _ journal: PublicationJournal, owner capability: AuthoringCapabilityProvider,
    workspace: (@Sendable (Source) -> WorkspaceID)? = nil,
    checkpoint: (@Sendable (JournalingCheckpoint) -> Void)? = nil
  ) -> Self {
    journaling(
      journal, owner: { capability.current?.identity.rawValue }, workspace: workspace,
      checkpoint: checkpoint)
  }
}
