import ComposableCore
import ComposableWorkspace

/// How ``AuthoringWorkspace`` connects its content with the workspace: which content actions
/// are requests to forward to Workspace, and which content action receives Workspace's
/// outcomes (its delegate events).
///
/// A content feature declares it once; the layer does the routing, so no application copies
/// glue that sends a form's request to the workspace and its outcome back:
///
/// ```swift
/// struct EventViewer: WorkspaceContent {
///   enum Action {
///     case propose(title: String)
///     case request(WorkspaceRequest)         // sent by the viewer, forwarded by the layer
///     case workspace(WorkspaceEvent)          // outcomes, delivered by the layer
///   }
///
///   static let workspaceRouting = WorkspaceRouting<EventViewer>(
///     requests: CasePath(embed: Action.request) {
///       if case .request(let request) = $0 { request } else { nil }
///     },
///     outcomes: CasePath(embed: Action.workspace) {
///       if case .workspace(let event) = $0 { event } else { nil }
///     }
///   )
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .propose(let title):
///       let request = ProposalRequest(title: title, summary: "")
///       state.local.form = .publishing(request)
///       return .send(.request(.publishProposal(request)))
///     case .workspace(.publication(let outcome)):
///       state.local.form.finish(outcome)   // every attempt ends with exactly one outcome
///       return .none
///     case .request, .workspace:
///       return .none
///     }
///   }
/// }
/// ```
///
/// Every outcome reaches the content, whoever asked (the application may send Workspace
/// actions too), so a form that started an operation always hears how it ended.
public struct WorkspaceRouting<Content: WorkspaceContent>: Sendable {
  /// The content actions that are requests for the workspace.
  public let requests: CasePath<Content.Action, WorkspaceRequest>?
  /// The content action that receives Workspace's delegate events.
  public let outcomes: CasePath<Content.Action, Content.WorkspaceEvent>?

  /// Routes the content's `requests` to the workspace and Workspace's events to `outcomes`.
  public init(
    requests: CasePath<Content.Action, WorkspaceRequest>?,
    outcomes: CasePath<Content.Action, Content.WorkspaceEvent>?
  ) {
    self.requests = requests
    self.outcomes = outcomes
  }

  /// No routing: content that never asks the workspace for anything.
  public static var none: Self { Self(requests: nil, outcomes: nil) }
}
