import ComposableAuthoring
import ComposableCore
import ComposableWorkspace

/// What content wrapped by ``AuthoringWorkspace`` sees and may change.
///
/// - ``context`` (the validated authoring capability) and ``workspace`` are read-only: only
///   Authoring and Workspace change them.
/// - ``source`` is the writable content of a ready session: the editor's source of truth.
///   Setting it while the workspace is not ready does nothing (there is no session to write
///   to), and the baseline can never be changed from here.
/// - ``local`` is the content's own state.
///
/// A content feature can be tested alone, with its own `TestStore`:
///
/// ```swift
/// let store = TestStore(
///   initialState: AuthoringWorkspaceContent(
///     context: adaContext,
///     workspace: WorkspaceState(id: "events", availability: .ready(session)),
///     local: EventViewer.Local()
///   )
/// ) {
///   EventViewer()
/// }
/// await store.send(.rename(id: "e1", title: "New Year Concert")) {
///   $0.source?.events[id: "e1"]?.title = "New Year Concert"
/// }
/// ```
public struct AuthoringWorkspaceContent<Source: Sendable, Local> {
  /// The currently validated authoring capability, or `nil`.
  public let context: AuthoringContext?
  /// The workspace: its id and availability.
  public let workspace: WorkspaceState<Source>
  /// The content's own state.
  public var local: Local
  /// Edits of the ready session's source, applied back by the layer.
  private var editedSource: Source?

  /// The content's view of `context` and `workspace`, with its own `local` state. The
  /// ``AuthoringWorkspace`` layer builds it for every content action; tests of a content
  /// feature build it themselves.
  public init(context: AuthoringContext?, workspace: WorkspaceState<Source>, local: Local) {
    self.context = context
    self.workspace = workspace
    self.local = local
  }

  /// The ready session, when there is one.
  public var session: WorkspaceSession<Source>? {
    guard var session = workspace.session else { return nil }
    if let editedSource { session.source = editedSource }
    return session
  }

  /// The writable source of the ready session; `nil` when the workspace is not ready.
  public var source: Source? {
    get { session?.source }
    set {
      guard workspace.session != nil, let newValue else {
        reportIssue(
          "Content wrote a source while the workspace is \(workspace.availability.caseName); the edit was ignored. Edit only a ready session's source."
        )
        return
      }
      editedSource = newValue
    }
  }

  /// The source edits to apply back to the workspace session.
  var sourceEdit: Source? { editedSource }
}

extension AuthoringWorkspaceContent: Equatable where Source: Equatable, Local: Equatable {}
extension AuthoringWorkspaceContent: Sendable where Local: Sendable {}
