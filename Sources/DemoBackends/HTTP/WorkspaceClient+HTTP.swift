import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import DemoHTTPProtocol
import Foundation
import WorkspaceDemoFeature
import WorkspaceHTTP

extension WorkspaceClient where Source == EventWorkingCopy, ChangeSet == EventChangeSet {
  /// The demo's workspace client on the demo server: the source is a local editable copy (in
  /// `workingCopies`, like the in-memory client's), prepared against the server's exact
  /// revision of the branch; proposals are the server's records.
  ///
  /// - Every call reads the capability from `capability`
  ///   (``WorkspaceAuthorizationError/invalidated`` when there is none, or it lacks what the
  ///   call needs) and names its grant to the server, which checks it for the session: a 401
  ///   (the session is gone) or a 403 for the grant is
  ///   ``WorkspaceAuthorizationError/invalidated`` too.
  /// - **prepareSource** reads the branch's head (its id and its events together, one
  ///   coherent revision) and keeps the copy; preparing again opens the same copy.
  /// - **refreshBaseline** carries the copy's edits onto the branch's new head (as a rebase
  ///   would); **selectBranch** (only without edits) installs another branch's head.
  /// - **captureChanges** compares the copy with the baseline revision the server holds.
  /// - **publishProposal** sends one idempotent intent whose `Idempotency-Key` is the
  ///   request's key: a lost answer, a timeout or a 5xx is retried with the same key and body,
  ///   and the server answers a retry with the record it created first. When the branch
  ///   moved, the server creates nothing and answers 412: ``WorkspaceHeadMismatch`` with both
  ///   heads. No definite answer after every attempt is ``DemoServerUnavailable`` (the form
  ///   keeps the request for a retry with the same key).
  static func http(
    server: DemoServerConnection,
    capability: AuthoringCapabilityProvider,
    workingCopies: DemoWorkingCopies,
    publishedBranch: BranchName = "published"
  ) -> Self {
    /// The grant in force allowing `needed`.
    @Sendable func grant(_ needed: AuthoringCapabilities = .edit) throws -> AuthoringGrant {
      guard let context = capability.current, context.capabilities.contains(needed) else {
        throw WorkspaceAuthorizationError.invalidated
      }
      return context.grant
    }

    /// Runs a call to the server; the server withdrawing the grant or the session is
    /// `.invalidated`.
    @Sendable func call<T>(_ body: () async throws -> T) async throws -> T {
      do {
        return try await body()
      } catch HTTPSessionError.signedOut {
        throw WorkspaceAuthorizationError.invalidated
      } catch let refusal as DemoServerError where refusal.withdrawsAuthorization {
        throw WorkspaceAuthorizationError.invalidated
      }
    }

    @Sendable func head(_ branch: BranchName, _ grant: AuthoringGrant) async throws
      -> DemoAPI.Revision
    {
      try await call { try await server.get(DemoAPI.branch(branch.rawValue), grant: grant) }
    }

    @Sendable func events(_ reference: WorkspaceBranchReference, _ grant: AuthoringGrant)
      async throws -> [Event]
    {
      try await call {
        try await server.get(
          DemoAPI.revision(reference.revision, of: reference.branch.rawValue),
          as: DemoAPI.Revision.self, grant: grant
        ).events
      }
    }

    @Sendable func session(_ id: WorkspaceID, _ head: DemoAPI.Revision) -> WorkspaceSession<
      EventWorkingCopy
    > {
      WorkspaceSession(
        source: EventWorkingCopy(workspace: id, events: IdentifiedArray(head.events)),
        baseline: WorkspaceBranchReference(branch: BranchName(head.branch), revision: head.id))
    }

    return Self(
      prepareSource: { id in
        let head = try await head(publishedBranch, try grant())
        if let existing = workingCopies[id] { return existing }
        return workingCopies.insertIfAbsent(session(id, head))
      },
      refreshBaseline: { source, baseline in
        let grant = try grant()
        let base = try await events(baseline, grant)
        let head = try await head(baseline.branch, grant)
        // The working copy's own changes, carried onto the new head.
        let edits = EventChangeSet.between(baseline: base, working: Array(source.events))
        var rebased = source
        rebased.events = IdentifiedArray(edits.applied(to: head.events))
        let refreshed = WorkspaceSession(
          source: rebased,
          baseline: WorkspaceBranchReference(branch: baseline.branch, revision: head.id))
        workingCopies.update(refreshed)
        return refreshed
      },
      selectBranch: { source, branch in
        let grant = try grant()
        guard let current = workingCopies[source.workspace]?.baseline else {
          throw DemoWorkspaceError.unknownWorkingCopy(source.workspace)
        }
        let base = try await events(current, grant)
        guard EventChangeSet.between(baseline: base, working: Array(source.events)).isEmpty else {
          throw DemoWorkspaceError.uncommittedEdits
        }
        let selected = session(source.workspace, try await head(branch, grant))
        workingCopies.update(selected)
        return selected
      },
      captureChanges: { source, baseline in
        let grant = try grant()
        workingCopies.update(WorkspaceSession(source: source, baseline: baseline))
        let base = try await events(baseline, grant)
        return EventChangeSet.between(baseline: base, working: Array(source.events))
      },
      publishProposal: { source, baseline, changes, request in
        let grant = try grant(.publish)
        workingCopies.update(WorkspaceSession(source: source, baseline: baseline))
        let draft = DemoAPI.NewProposal(
          grant: grant.rawValue, title: request.title, summary: request.summary,
          branch: baseline.branch.rawValue, base: baseline.revision, changes: changes)
        let proposal: DemoProposal
        do {
          proposal = try await call {
            try await server.createProposal(draft, key: request.idempotencyKey)
          }
        } catch let refusal as DemoServerError where refusal.code == .headMoved {
          throw WorkspaceHeadMismatch(
            expected: baseline,
            actual: WorkspaceBranchReference(
              branch: baseline.branch, revision: refusal.problem?.actual ?? "?"))
        }
        return ProposalRecord(
          id: proposal.id, contentRevision: proposal.contentRevision,
          target: WorkspaceBranchReference(
            branch: BranchName(proposal.branch), revision: proposal.baseRevision))
      }
    )
  }
}
