import ComposableAuthoringWorkspace
import ComposableCore
import ComposableWorkspace

/// The demo's authoring content: lists and edits the events of the writable working copy, and
/// asks for proposals. It edits only the source of a ready session and reads the authoring
/// capability; it never infers anything from appearing or disappearing.
public struct EventViewer: WorkspaceContent {
  public typealias Source = EventWorkingCopy
  public typealias ChangeSet = EventChangeSet
  public typealias State = AuthoringWorkspaceContent<EventWorkingCopy, Local>

  /// The viewer's own state.
  public struct Local: Equatable, Sendable {
    public var form: ProposalForm = .idle
    /// The records created from this workspace, in order.
    public var proposals: [ProposalRecord] = []
    /// The last captured difference (a preview).
    public var preview: EventChangeSet?
    public init() {}
  }

  public enum Action: Equatable, Sendable {
    case add(Event)
    case rename(id: String, title: String)
    case reschedule(id: String, date: String)
    case remove(id: String)
    /// Replace the working copy with the baseline's events, to start an independent proposal.
    case startFreshProposal
    case propose(title: String)
    case retryProposal
    /// A request for the workspace; `AuthoringWorkspace` forwards it (see ``workspaceRouting``).
    /// The viewer sends `.publishProposal` itself; `.captureChanges` asks for a preview.
    case request(WorkspaceRequest)
    /// What the workspace answered, delivered by `AuthoringWorkspace`.
    case workspace(WorkspaceEvent)
  }

  /// Requests go out through ``Action/request(_:)``; the workspace's events come back through
  /// ``Action/workspace(_:)``.
  public static let workspaceRouting = WorkspaceRouting<EventViewer>(
    requests: CasePath(embed: Action.request) {
      if case .request(let request) = $0 { request } else { nil }
    },
    outcomes: CasePath(embed: Action.workspace) {
      if case .workspace(let event) = $0 { event } else { nil }
    }
  )

  @Dependency(CatalogueClient.self) var catalogue

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let event):
      state.source?.events.append(event)
      return .none
    case .rename(let id, let title):
      state.source?.events[id: id]?.title = title
      return .none
    case .reschedule(let id, let date):
      state.source?.events[id: id]?.date = date
      return .none
    case .remove(let id):
      state.source?.events.remove(id: id)
      return .none
    case .startFreshProposal:
      guard let baseline = state.session?.baseline else {
        reportIssue("startFreshProposal sent while no workspace session is ready; it was ignored.")
        return .none
      }
      let catalogue = self.catalogue
      return .run(modifying: State.self) { _, state in
        let events = try await catalogue.events(baseline)
        await state.modify {
          $0.source?.events = IdentifiedArray(events)
          $0.local.form = .idle
          $0.local.preview = nil
        }
      }
    case .propose(let title):
      if case .publishing = state.local.form { return .none }
      return publish(ProposalRequest(title: title, summary: ""), &state)
    case .retryProposal:
      guard let request = state.local.form.retryableRequest else { return .none }
      return publish(request, &state)
    case .workspace(.publication(let outcome)):
      finish(&state.local, with: outcome)
      return .none
    case .workspace(.interrupted):
      // The attempt will not answer (a record created anyway still arrives, see `finish`);
      // the request is kept, so a retry sends the same idempotency key.
      if case .publishing(let request) = state.local.form {
        state.local.form = .interrupted(request)
      }
      return .none
    case .workspace(.changesCaptured(let changes)):
      state.local.preview = changes
      return .none
    case .request, .workspace:
      return .none
    }
  }

  /// Proposing needs the publish capability and a ready workspace; without them the form says
  /// so and nothing is sent.
  private func publish(_ request: ProposalRequest, _ state: inout State) -> Effect<Action> {
    guard state.context?.canPublish == true else {
      state.local.form = .failed(
        request, reason: "not authorized to propose; enter authoring first")
      return .none
    }
    guard state.session != nil else {
      state.local.form = .failed(request, reason: "the workspace is not ready yet")
      return .none
    }
    state.local.form = .publishing(request)
    return .send(.request(.publishProposal(request)))
  }

  /// How the form shows the end of an attempt. Every outcome ends a running attempt, so the
  /// form never stays `publishing`; a record that an interrupted attempt created anyway is
  /// recorded too (a retry with the same key answers that same record).
  private func finish(_ local: inout Local, with outcome: PublicationOutcome) {
    let pending: ProposalRequest? =
      switch local.form {
      case .publishing(let request), .interrupted(let request): request
      default: nil
      }
    let request = pending ?? ProposalRequest(title: "", summary: "")
    switch outcome {
    case .published(let record):
      local.form = .published(record)
      if !local.proposals.contains(where: { $0.id == record.id }) { local.proposals.append(record) }
    case .publishedInvalidRecord:
      // The record exists but its answer is invalid (reported): nothing of it is kept.
      local.form = .unconfirmed(request)
    case .noChanges:
      local.form = .noChanges
    case .headMoved(let mismatch):
      local.form = .failed(
        request,
        reason:
          "\(mismatch.expected.branch) moved from \(mismatch.expected.revision) to \(mismatch.actual.revision); refresh first"
      )
    case .failed(let failure) where failure.kind == .authorizationInvalidated:
      local.form = .failed(request, reason: "authorization was lost; enter authoring again")
    case .failed(let failure):
      local.form = .failed(request, reason: failure.message)
    }
  }
}
