import ComposableCore
import Foundation

/// What the proposal form asks to publish: a title, a summary, and the idempotency key of this
/// publication attempt.
///
/// One attempt carries one key through every retry: ``Workspace`` retries transient failures
/// with the same request, and a form that lets the user retry an attempt must keep its request
/// and send it again (same key), so the remote creates at most one record. A new attempt (the
/// user edits and publishes again after a result) makes a new request.
///
/// ```swift
/// case .submitTapped:
///   let request = state.pendingRequest ?? ProposalRequest(title: state.title, summary: state.summary)
///   state.pendingRequest = request
///   return .send(.workspace(.publishProposal(request)))
/// ```
public struct ProposalRequest: Hashable, Sendable, Codable {
  /// The proposal's title.
  public var title: String
  /// The proposal's description.
  public var summary: String
  /// The key the remote uses to recognise a retry of the same attempt.
  public var idempotencyKey: UUID

  /// Creates a request with an explicit key.
  public init(title: String, summary: String, idempotencyKey: UUID) {
    self.title = title
    self.summary = summary
    self.idempotencyKey = idempotencyKey
  }

  /// Creates a request for a new attempt, taking its key from `@Dependency(\.uuid)`.
  ///
  /// Call it while reducing (or inside an effect) so the key comes from the store's
  /// dependencies: tests then get deterministic keys (00000000-0000-0000-0000-000000000000, …).
  public init(title: String, summary: String) {
    @Dependency(\.uuid) var uuid
    self.init(title: title, summary: summary, idempotencyKey: uuid())
  }
}
