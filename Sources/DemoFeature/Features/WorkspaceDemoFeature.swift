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
/// - it routes the content's requests to the workspace and the workspace's outcomes back to
///   the content's proposal form.
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

    public init(
      session: DemoSession? = nil,
      editing: Editing.State = Editing.State(workspace: WorkspaceState(id: "events"), content: .init())
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
    case enterAuthoring
    case leaveAuthoring
    case refreshPublished
    case selectBranch(BranchName)
    case listProposals
    case merge(proposalID: String)
    case editing(Editing.Action)
  }

  @Dependency(AuthClient.self) var auth
  @Dependency(CatalogueClient.self) var catalogue

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
        return .send(.editing(.authoring(.requestAuthoring)))
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

  /// Connects the content's requests to the workspace, and the workspace's outcomes to the
  /// content's form and the app's notice.
  private func route(_ action: Editing.Action, _ state: inout State) -> Effect<Action> {
    switch action {
    case .content(.delegate(.publish(let request))):
      return .send(.editing(.workspace(.publishProposal(request))))
    case .content(.delegate(.capture)):
      return .send(.editing(.workspace(.captureChanges)))
    case .workspace(.delegate(.publication(let outcome))):
      return .send(.editing(.content(.publicationFinished(outcome))))
    case .workspace(.delegate(.changesCaptured(let changes))):
      return .send(.editing(.content(.changesCaptured(changes))))
    case .workspace(.delegate(.authorizationInvalidated)):
      // The server no longer honours the grant: Authoring drops it (which interrupts the
      // workspace), and a running proposal form learns why it stopped.
      return .merge(
        .send(.editing(.content(.authorizationLost))),
        .send(.editing(.authoring(.authorizationInvalidated)))
      )
    case .workspace(.delegate(.refreshFailed(let failure))):
      state.notice = "refresh failed: \(failure.message)"
      return .none
    case .workspace(.delegate(.branchSelectionFailed(let branch, let failure))):
      state.notice = "could not select \(branch): \(failure.message)"
      return .none
    case .workspace(.delegate(.captureFailed(let failure))):
      state.notice = "could not compare changes: \(failure.message)"
      return .none
    case .authoring, .workspace, .content:
      return .none
    }
  }

  static var editingCase: CasePath<Action, Editing.Action> {
    CasePath(embed: Action.editing) { if case .editing(let action) = $0 { action } else { nil } }
  }
}

extension WorkspaceDemoFeature {
  /// The live feature graph on `system`: every client composed with the same credentials.
  ///
  /// - Parameter workingCopies: ready sessions restored from elsewhere (a state file).
  public static func live(
    system: DemoSystem,
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>] = []
  ) -> some Reducer<State, Action> {
    live(
      system: system, credentials: credentials,
      workspace: DemoWorkspaceClient.demo(
        system: system, credentials: credentials, workingCopies: workingCopies),
      catalogue: CatalogueClient.demo(system: system)
    )
  }
}

/// Builds the demo application's store: the live feature graph on an in-memory system. The
/// application stories and `demo-cli` both use it.
///
/// ```swift
/// let store = makeWorkspaceDemoStore()
/// await store.send(.start).finish()
/// await store.send(.signIn(username: "ada", password: "lovelace")).finish()
/// ```
@MainActor
public func makeWorkspaceDemoStore(
  system: DemoSystem = DemoSystem(),
  credentials: DemoCredentials = DemoCredentials(),
  initialState: WorkspaceDemoFeature.State = WorkspaceDemoFeature.State()
) -> Store<WorkspaceDemoFeature.State, WorkspaceDemoFeature.Action> {
  Store(initialState: initialState) {
    // A ready session in the initial state (reopened from a file) is the client's working copy.
    WorkspaceDemoFeature.live(
      system: system, credentials: credentials,
      workingCopies: initialState.editing.workspace.session.map { [$0] } ?? []
    )
  }
}
