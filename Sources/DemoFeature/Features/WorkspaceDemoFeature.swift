import ComposableAuthoring
import ComposableAuthoringWorkspace
import ComposableCore
import ComposableWorkspace

/// The demo application: application authentication (sign-in, sign-out) around
/// `AuthoringWorkspace { EventViewer() }`, plus a reviewer's view of the catalogue.
///
/// It owns the lifecycle connections the spec gives the application:
/// - at start it sends `restoreAuthorization`;
/// - when the session identity changes it sends `authorizationInvalidated` and awaits it, then
///   (when the new session is valid) `refreshAdmission` and awaits that too — a
///   `.concatenate`, so a late answer for the previous identity can never restore anything.
///   Sign-in and sign-out end with that reconciliation, so awaiting their task awaits
///   admission (and the preparation it requests);
/// - it shows the failures of the operations it requested itself (refresh, branch selection,
///   a preview) in ``State/notice`` — except invalid client output, which the workspace has
///   reported as an issue and which never becomes state;
/// - it removes local workspace data when asked (``Action/forgetWorkspace``): an operation the
///   spec leaves to the application.
///
/// The content's requests and the workspace's outcomes are routed by `AuthoringWorkspace`
/// itself (``EventViewer/workspaceRouting``), and a server-side revocation reaches Authoring
/// through it too: none of that is glue here.
public struct WorkspaceDemoFeature: Reducer {
  public typealias Editing = AuthoringWorkspace<EventViewer>

  public struct State: Equatable, Sendable {
    /// The signed-in application session.
    public var session: DemoSession?
    /// The last thing the app has to tell the person (a refused sign-in, a failed refresh).
    public var notice: String?
    /// The session token Authoring was last reconciled with (see ``Action/reconcileIdentity``).
    public var reconciledSessionToken: String?
    public var editing: Editing.State
    /// The proposals the catalogue listed last.
    public var listedProposals: [DemoProposal] = []

    /// The workspace the demo edits (a backend's working copy is named after it).
    public static let workspaceID: WorkspaceID = "events"

    public init(
      session: DemoSession? = nil,
      editing: Editing.State = Editing.State(
        workspace: WorkspaceState(id: workspaceID), content: .init())
    ) {
      self.session = session
      self.editing = editing
    }
  }

  public enum Action: Equatable, Sendable {
    /// The app started: revalidate a persisted grant.
    case start
    case signIn(username: String, password: String)
    case signOut
    /// Tells Authoring about a session change, if there was one: invalidate (awaited), then
    /// refresh admission for a new valid session.
    case reconcileIdentity
    /// Asks for admission; when already admitted without a ready workspace (after
    /// ``forgetWorkspace``, or a failed preparation), prepares it again.
    case enterAuthoring
    case leaveAuthoring
    /// Removes the local workspace data: the workspace returns to `inactive` (its operations
    /// cancelled), the proposal form and preview are cleared, and the local copy is deleted
    /// through ``LocalWorkspaceDataClient``. Records already created stay listed; they are
    /// remote. Unproposed edits are lost — that is what was asked.
    case forgetWorkspace
    case refreshPublished
    case selectBranch(BranchName)
    case listProposals
    case merge(proposalID: String)
    case editing(Editing.Action)
  }

  @Dependency(AuthClient.self) var auth
  @Dependency(CatalogueClient.self) var catalogue
  @Dependency(LocalWorkspaceDataClient.self) var localData

  public init() {}

  public var body: some Reducer<State, Action> {
    Scope(state: \.editing, action: Self.editingCase) {
      Editing { EventViewer() }
    }
    Reduce { state, action in
      switch action {
      case .start:
        return .send(.editing(.authoring(.restoreAuthorization)))

      case .signIn(let username, let password):
        let auth = self.auth
        return .concatenate(
          .run(modifying: State.self) { _, state in
            let session = try await auth.signIn(username, password)
            await state.modify {
              $0.session = session
              $0.notice = nil
            }
          } catch: { error, _, state in
            await state.modify { $0.notice = "\(error)" }
          },
          .send(.reconcileIdentity)
        )

      case .signOut:
        guard state.session != nil else { return .none }
        state.session = nil
        let auth = self.auth
        return .concatenate(
          .run { _ in await auth.signOut() },
          .send(.reconcileIdentity)
        )

      case .reconcileIdentity:
        let token = state.session?.token
        guard token != state.reconciledSessionToken else { return .none }
        state.reconciledSessionToken = token
        // Await the invalidation before anything can admit the new identity.
        let invalidate = Effect<Action>.send(.editing(.authoring(.authorizationInvalidated)))
        return token == nil
          ? invalidate
          : .concatenate(invalidate, .send(.editing(.authoring(.refreshAdmission))))

      case .enterAuthoring:
        guard state.editing.authoring.context != nil else {
          return .send(.editing(.authoring(.requestAuthoring)))
        }
        switch state.editing.workspace.availability {
        case .inactive, .preparationFailed: return .send(.editing(.workspace(.prepareSource)))
        case .preparing, .ready: return .none
        }
      case .forgetWorkspace:
        return forget(&state)
      case .leaveAuthoring:
        return .send(.editing(.authoring(.leaveAuthoring)))
      case .refreshPublished:
        return .send(.editing(.workspace(.refreshBaseline)))
      case .selectBranch(let branch):
        return .send(.editing(.workspace(.selectBranch(branch))))

      case .listProposals:
        let catalogue = self.catalogue
        return .run(modifying: State.self) { _, state in
          let proposals = await catalogue.proposals()
          await state.modify { $0.listedProposals = proposals }
        }

      case .merge(let id):
        let catalogue = self.catalogue
        return .run(modifying: State.self) { _, state in
          let revision = try await catalogue.merge(id)
          await state.modify { $0.notice = "\(id) merged: \(revision) is the new head" }
        } catch: { error, _, state in
          await state.modify { $0.notice = "\(error)" }
        }

      case .editing(let action):
        return route(action, &state)
      }
    }
  }

  /// Shows the failures of the operations the application requested; invalid client output
  /// was reported as an issue by the workspace and is kept nowhere.
  private func route(_ action: Editing.Action, _ state: inout State) -> Effect<Action> {
    guard case .workspace(.delegate(let event)) = action else { return .none }
    let failure: (operation: String, cause: WorkspaceFailure)
    switch event {
    case .refreshFailed(let cause): failure = ("refresh failed", cause)
    case .branchSelectionFailed(let branch, let cause):
      failure = ("could not select \(branch)", cause)
    case .captureFailed(let cause): failure = ("could not compare changes", cause)
    default: return .none
    }
    guard failure.cause.kind != .invalidIntegratorOutput else { return .none }
    state.notice = "\(failure.operation): \(failure.cause.message)"
    return .none
  }

  /// Resets the workspace to `inactive` (cancelling its operations), then deletes its local copy.
  private func forget(_ state: inout State) -> Effect<Action> {
    let id = state.editing.workspace.id
    state.editing.workspace = WorkspaceState(id: id)
    state.editing.content.form = .idle
    state.editing.content.preview = nil
    let localData = self.localData
    return .merge(
      .send(.editing(.workspace(.interruptAuthorizedWork))),
      .run(modifying: State.self) { _, _ in
        try await localData.remove(id)
      } catch: { error, _, state in
        await state.modify { $0.notice = "could not remove the local copy of \(id): \(error)" }
      }
    )
  }

  static var editingCase: CasePath<Action, Editing.Action> {
    CasePath(embed: Action.editing) { if case .editing(let action) = $0 { action } else { nil } }
  }
}
