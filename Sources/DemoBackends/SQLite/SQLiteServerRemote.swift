import ComposableAuthoring
import ComposableWorkspace
import DemoHTTPProtocol
import Foundation
import SQLiteWorkspace
import WorkspaceHTTP

/// A ``/SQLiteWorkspace/SQLiteWorkspaceRemote`` on a demo server that keeps its data in SQLite
/// (`demo-cli serve --database FILE`), over the demo's ``/DemoHTTPProtocol/DemoAPI/SQLite``
/// protocol and an ``/WorkspaceHTTP/HTTPSession`` already signed in (its cookies, its CSRF
/// echo).
///
/// ```swift
/// let remote = SQLiteServerRemote(session: session) { capability.current?.grant }
/// let sqlite = SQLiteWorkspaceClient(remote: remote, root: workspaces, capability: capability)
/// ```
///
/// Reads are public. A proposal is one idempotent intent (`Idempotency-Key`: the attempt's
/// key), sent again on a lost answer up to `attempts` times; the server moving the branch is
/// `WorkspaceHeadMismatch`, the server no longer honouring the session or grant
/// `WorkspaceAuthorizationError.invalidated`, no definite answer
/// `WorkspaceUnavailableError` (transient: the workspace retries with the same key).
public struct SQLiteServerRemote: SQLiteWorkspaceRemote {
  public let session: HTTPSession
  let grant: @Sendable () -> AuthoringGrant?
  let policy: RetryPolicy

  public init(
    session: HTTPSession, attempts: Int = 3, backoff: Backoff = Backoff(),
    grant: @escaping @Sendable () -> AuthoringGrant?
  ) {
    self.session = session
    self.grant = grant
    self.policy = RetryPolicy(maxAttempts: attempts, backoff: backoff)
  }

  public func head(of branch: BranchName) async throws -> WorkspaceBranchReference {
    let request = HTTPRequest.get(DemoAPI.SQLite.head(of: branch.rawValue), access: .public)
    let response = try await send(request)
    guard response.status != 404 else { throw SQLiteWorkspaceError.branchNotFound(branch) }
    return try decode(response, of: request)
  }

  public func image(of revision: String) async throws -> Data {
    let request = HTTPRequest.get(DemoAPI.SQLite.revision(revision), access: .public)
    let response = try await send(request)
    guard response.status != 404 else { throw SQLiteWorkspaceError.revisionNotFound(revision) }
    try check(response, of: request)
    return response.body
  }

  public func propose(_ submission: SQLiteProposalSubmission) async throws -> ProposalRecord {
    guard let grant = grant() else { throw WorkspaceAuthorizationError.invalidated }
    let intent = IdempotentIntent(
      key: IdempotencyKey(submission.idempotencyKey), path: DemoAPI.SQLite.proposals,
      body: try .json(
        DemoAPI.SQLite.NewProposal(
          grant: grant.rawValue, title: submission.title, summary: submission.summary,
          target: submission.target, changeset: submission.changeset)))
    let response: HTTPResponse
    do {
      response = try await session.send(intent, policy: policy)
    } catch HTTPSessionError.signedOut {
      throw WorkspaceAuthorizationError.invalidated
    } catch IdempotentIntentError.refused(_, _, let refusal) {
      let problem = try? refusal.decode(DemoAPI.Problem.self)
      if refusal.status == 412, problem?.code == .headMoved, let actual = problem?.actual {
        throw WorkspaceHeadMismatch(
          expected: submission.target,
          actual: WorkspaceBranchReference(branch: submission.target.branch, revision: actual))
      }
      try check(refusal, of: intent.request)
      throw SQLiteServerError(request: intent.summary, status: refusal.status, problem: problem)
    } catch IdempotentIntentError.keyReusedWithOtherPayload(_, let key) {
      throw SQLiteWorkspaceError.proposalKeyReused(key: key.rawValue, existing: "on the server")
    } catch let error as IdempotentIntentError {
      throw WorkspaceUnavailableError("\(error)")
    }
    return try decode(response, of: intent.request)
  }

  public func proposals() async throws -> [SQLiteProposal] {
    let request = HTTPRequest.get(DemoAPI.SQLite.proposals, access: .public)
    return try decode(try await send(request), of: request)
  }

  public func merge(proposalID id: String) async throws -> WorkspaceBranchReference {
    let request = HTTPRequest(method: .post, path: DemoAPI.SQLite.merge(id))
    let response = try await send(request)
    if response.status == 409, let problem = try? response.decode(DemoAPI.Problem.self),
      problem.code == .mergeConflict
    {
      throw SQLiteServerError(request: request.summary, status: 409, problem: problem)
    }
    guard response.status != 404 else { throw SQLiteWorkspaceError.proposalNotFound(id) }
    return try decode(response, of: request)
  }

  // MARK: Answers

  private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    do {
      return try await session.send(request)
    } catch HTTPSessionError.signedOut {
      throw WorkspaceAuthorizationError.invalidated
    }
  }

  /// Throws for anything but a 2xx: `.invalidated` when the server no longer honours the
  /// session or grant, else ``SQLiteServerError``.
  private func check(_ response: HTTPResponse, of request: HTTPRequest) throws {
    guard !response.isSuccess else { return }
    let problem = try? response.decode(DemoAPI.Problem.self)
    if response.status == 401
      || (response.status == 403
        && (problem?.code == .grantInvalid || problem?.code == .admissionDenied))
    {
      throw WorkspaceAuthorizationError.invalidated
    }
    throw SQLiteServerError(request: request.summary, status: response.status, problem: problem)
  }

  private func decode<Value: Decodable>(
    _ response: HTTPResponse, of request: HTTPRequest
  ) throws -> Value {
    try check(response, of: request)
    do {
      return try response.decode(Value.self)
    } catch {
      throw SQLiteServerError(request: request.summary, status: response.status, problem: nil)
    }
  }
}

/// The server refused a request of the SQLite protocol (or answered one unreadably): its
/// status and its own sentence, never a body or a header.
public struct SQLiteServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The method and path, e.g. `POST /v1/sqlite/proposals`.
  public var request: String
  public var status: Int
  public var problem: DemoAPI.Problem?

  public var description: String {
    guard let problem, !problem.detail.isEmpty else {
      return "the server answered \(request) with \(status)"
    }
    return "\(problem.detail) (\(status))"
  }
}
