import ComposableAuthoring
import ComposableCore
import ComposableWorkspace

/// The workspace client type of the demo.
public typealias DemoWorkspaceClient = WorkspaceClient<EventWorkingCopy, EventChangeSet>

extension WorkspaceClient where Source == EventWorkingCopy, ChangeSet == EventChangeSet {
  /// The workspace client over the in-memory system.
  ///
  /// - Local working copies are kept per workspace id in `workingCopies`, so preparing again
  ///   opens the same copy (with the newest content the client has seen) and never replaces it
  ///   or advances its baseline. A copy removed from `workingCopies` (the application's
  ///   "remove local data") is never brought back by a late answer: only `prepareSource` adds
  ///   copies.
  /// - Refreshing carries the working copy's changes onto the branch's new head; selecting a
  ///   branch (only without edits) answers that branch's events.
  /// - Every external operation first reads the validated capability from
  ///   `credentials.capability` and checks it against the system (the grant is still honoured
  ///   for the session, and the policy still lets its holder author):
  ///   ``WorkspaceAuthorizationError/invalidated`` when there is none or it is not.
  /// - Publication sends the request's idempotency key; the system answers a retry with the
  ///   record it created first.
  public static func demo(
    system: DemoSystem,
    credentials: DemoCredentials,
    publishedBranch: BranchName = "published",
    workingCopies: DemoWorkingCopies = DemoWorkingCopies()
  ) -> Self {
    @Sendable func authorize(
      _ needed: AuthoringCapabilities = .edit
    ) async throws -> (grant: String, token: String) {
      guard let context = credentials.capability.current, context.capabilities.contains(needed),
        let session = credentials.current.session
      else { throw WorkspaceAuthorizationError.invalidated }
      do {
        _ = try await system.validate(grantID: context.grant.rawValue, token: session.token)
      } catch {
        throw WorkspaceAuthorizationError.invalidated
      }
      return (context.grant.rawValue, session.token)
    }

    /// Keeps the newest content (and baseline) of a working copy, so preparing again opens it.
    @Sendable func keep(_ session: WorkspaceSession<EventWorkingCopy>) {
      workingCopies.update(session)
    }

    return Self(
      prepareSource: { id in
        _ = try await authorize()
        if let existing = workingCopies[id] { return existing }
        let head = try await system.head(of: publishedBranch.rawValue)
        let session = WorkspaceSession(
          source: EventWorkingCopy(workspace: id, events: IdentifiedArray(head.events)),
          baseline: WorkspaceBranchReference(branch: publishedBranch, revision: head.id)
        )
        return workingCopies.insertIfAbsent(session)
      },
      refreshBaseline: { source, baseline in
        _ = try await authorize()
        let base = try await system.revision(baseline.revision, of: baseline.branch.rawValue)
        let head = try await system.head(of: baseline.branch.rawValue)
        // The working copy's own changes, carried onto the new head (as a rebase would).
        let edits = EventChangeSet.between(baseline: base.events, working: Array(source.events))
        var rebased = source
        rebased.events = IdentifiedArray(edits.applied(to: head.events))
        let refreshed = WorkspaceSession(
          source: rebased,
          baseline: WorkspaceBranchReference(branch: baseline.branch, revision: head.id))
        keep(refreshed)
        return refreshed
      },
      selectBranch: { source, branch in
        _ = try await authorize()
        guard let current = workingCopies[source.workspace]?.baseline else {
          throw DemoWorkspaceError.unknownWorkingCopy(source.workspace)
        }
        let base = try await system.revision(current.revision, of: current.branch.rawValue)
        guard EventChangeSet.between(baseline: base.events, working: Array(source.events)).isEmpty
        else {
          throw DemoWorkspaceError.uncommittedEdits
        }
        let head = try await system.head(of: branch.rawValue)
        let selected = WorkspaceSession(
          source: EventWorkingCopy(
            workspace: source.workspace, events: IdentifiedArray(head.events)),
          baseline: WorkspaceBranchReference(branch: branch, revision: head.id))
        keep(selected)
        return selected
      },
      captureChanges: { source, baseline in
        _ = try await authorize()
        keep(WorkspaceSession(source: source, baseline: baseline))
        let base = try await system.revision(baseline.revision, of: baseline.branch.rawValue)
        return EventChangeSet.between(baseline: base.events, working: Array(source.events))
      },
      publishProposal: { source, baseline, changes, request in
        let (grant, token) = try await authorize(.publish)
        keep(WorkspaceSession(source: source, baseline: baseline))
        do {
          let proposal = try await system.createProposal(
            grantID: grant, token: token, key: request.idempotencyKey, title: request.title,
            branch: baseline.branch.rawValue, base: baseline.revision, changes: changes
          )
          return ProposalRecord(
            id: proposal.id, contentRevision: proposal.contentRevision,
            target: WorkspaceBranchReference(
              branch: BranchName(proposal.branch), revision: proposal.baseRevision)
          )
        } catch DemoError.headMoved(let branch, let expected, let actual) {
          throw WorkspaceHeadMismatch(
            expected: WorkspaceBranchReference(branch: BranchName(branch), revision: expected),
            actual: WorkspaceBranchReference(branch: BranchName(branch), revision: actual)
          )
        } catch DemoError.grantInvalid, DemoError.admissionDenied {
          throw WorkspaceAuthorizationError.invalidated
        }
      }
    )
  }
}

/// Why the demo workspace refused an operation.
public enum DemoWorkspaceError: Error, Equatable, CustomStringConvertible {
  /// Switching branches would overwrite edits: publish or discard them first.
  case uncommittedEdits
  /// The client never prepared this working copy.
  case unknownWorkingCopy(WorkspaceID)

  public var description: String {
    switch self {
    case .uncommittedEdits:
      "the working copy has edits; propose or discard them before switching branches"
    case .unknownWorkingCopy(let id): "no working copy was prepared for workspace \(id)"
    }
  }
}
