import ComposableAuthoring
import ComposableCore
import ComposableWorkspace

/// The composition of authoring admission with the workspace lifecycle: one real feature layer
/// with its own state and action, owning no second state machine.
///
/// It handles exactly the transitions between its two owners:
/// - **grant validated** → request workspace preparation — unless a session is already ready
///   (it is kept, not re-prepared) or being prepared;
/// - **grant invalidated** → interrupt authorized workspace work (in-flight operations are
///   cancelled; a ready session is kept);
/// - **authorization invalidated by the server** (the workspace's client answered
///   `WorkspaceAuthorizationError.invalidated`) → Authoring's `grantRevoked`, which drops the
///   capability and so interrupts the workspace.
///
/// It also routes its content's requests to the workspace, and the workspace's outcomes back
/// to the content, as the content's ``WorkspaceContent/workspaceRouting`` says.
///
/// Nothing is inferred from content appearing or disappearing. Every action — including
/// Workspace's delegate outcomes — also passes through for the parent to handle.
///
/// Its Authoring is named after the workspace (`Authoring(id:)` with the workspace id's text),
/// so layers for different workspaces composed side by side keep their operations apart:
/// `store.isEffectInFlight(AuthoringOperation.admission(of: "events"))`,
/// `store.isEffectInFlight(WorkspaceOperation.refresh(of: "events"))`.
///
/// ```swift
/// Scope(state: \.editing, action: .editing) {
///   AuthoringWorkspace {
///     EventViewer()
///   }
/// }
/// ```
public struct AuthoringWorkspace<Content: WorkspaceContent>: Reducer {
  public typealias Source = Content.Source
  public typealias ChangeSet = Content.ChangeSet

  /// The layer's state: Authoring's, the workspace's, and the content's own.
  public struct State {
    public var authoring: Authoring.State
    public var workspace: WorkspaceState<Source>
    public var content: Content.Local

    public init(
      authoring: Authoring.State = Authoring.State(),
      workspace: WorkspaceState<Source>,
      content: Content.Local
    ) {
      self.authoring = authoring
      self.workspace = workspace
      self.content = content
    }

    /// The content's view: capability and workspace read-only, source writable.
    var contentView: AuthoringWorkspaceContent<Source, Content.Local> {
      get {
        AuthoringWorkspaceContent(context: authoring.context, workspace: workspace, local: content)
      }
      set {
        content = newValue.local
        if let edited = newValue.sourceEdit, case .ready(var session) = workspace.availability {
          session.source = edited
          workspace.availability = .ready(session)
        }
      }
    }
  }

  public enum Action: Sendable {
    case authoring(Authoring.Action)
    case workspace(Workspace<Source, ChangeSet>.Action)
    case content(Content.Action)
  }

  private let content: Content
  private let workspaceReducer: Workspace<Source, ChangeSet>

  /// Wraps `content`.
  ///
  /// - Parameters:
  ///   - workspace: the Workspace reducer to run (to tune its publication retry).
  ///   - content: the content feature, which sees the capability and the workspace.
  public init(
    workspace: Workspace<Source, ChangeSet> = Workspace(),
    @ReducerBuilder<Content.State, Content.Action> content: () -> Content
  ) {
    self.workspaceReducer = workspace
    self.content = content()
  }

  public var body: some Reducer<State, Action> {
    Reduce { state, action in
      // Built per Authoring action: its name comes from the workspace the state belongs to.
      guard case .authoring = action else { return .none }
      return Scope(state: \.authoring, action: Self.authoringCase) {
        Authoring(id: AuthoringID(rawValue: state.workspace.id.rawValue))
      }
      .reduce(into: &state, action: action)
    }
    Scope(state: \.workspace, action: Self.workspaceCase) { workspaceReducer }
    Scope(state: \.contentView, action: Self.contentCase) { content }
    Reduce { state, action in
      switch action {
      case .authoring(.delegate(.grantValidated)):
        switch state.workspace.availability {
        case .inactive, .preparationFailed: return .send(.workspace(.prepareSource))
        case .preparing, .ready: return .none
        }
      case .authoring(.delegate(.grantInvalidated)):
        return .send(.workspace(.interruptAuthorizedWork))
      case .workspace(.delegate(let event)):
        return deliver(event)
      case .content(let action):
        guard let request = Content.workspaceRouting.requests?.extract(from: action) else {
          return .none
        }
        return .send(.workspace(request.action()))
      case .authoring, .workspace:
        return .none
      }
    }
  }

  /// A workspace event: the server's revocation goes to Authoring first, then the event to the
  /// content.
  private func deliver(_ event: Content.WorkspaceEvent) -> Effect<Action> {
    var revocation = Effect<Action>.none
    if case .authorizationInvalidated = event { revocation = .send(.authoring(.grantRevoked)) }
    guard let outcomes = Content.workspaceRouting.outcomes else { return revocation }
    return .merge(revocation, .send(.content(outcomes.embed(event))))
  }
}

extension AuthoringWorkspace.State: Equatable
where Content.Source: Equatable, Content.Local: Equatable {}
extension AuthoringWorkspace.State: Sendable where Content.Local: Sendable {}
extension AuthoringWorkspace.Action: Equatable
where Content.Action: Equatable, Content.ChangeSet: Equatable {}

extension AuthoringWorkspace {
  /// The case path of ``Action/authoring(_:)``.
  public static var authoringCase: CasePath<Action, Authoring.Action> {
    CasePath(embed: Action.authoring) { if case .authoring(let a) = $0 { a } else { nil } }
  }

  /// The case path of ``Action/workspace(_:)``.
  public static var workspaceCase: CasePath<Action, Workspace<Source, ChangeSet>.Action> {
    CasePath(embed: Action.workspace) { if case .workspace(let a) = $0 { a } else { nil } }
  }

  /// The case path of ``Action/content(_:)``.
  public static var contentCase: CasePath<Action, Content.Action> {
    CasePath(embed: Action.content) { if case .content(let a) = $0 { a } else { nil } }
  }
}
