import ComposableWorkspace
import Foundation

// The downstream guide's backend: a tiny in-memory server with accounts, sessions, grants, a
// catalogue of events on branches, and proposals. It stands in for the HTTP API a real app
// talks to; the guide's clients (GuideClients.swift) are written against it exactly as they
// would be against that API.

/// What the guide's server says no with.
enum ServerError: Error, Equatable {
  case unauthorized
  case readOnly(String)
  case noSuchRevision(String)
  case headMoved(expected: String, actual: String)
}

/// A catalogue of events — event id to title — at one revision.
typealias Events = [String: String]

actor CatalogueServer {
  private var authors: Set<String>
  private var sessions: [String: String] = [:]  // token → user
  private var grants: [String: String] = [:]  // grant → token
  private var branches: [BranchName: [(revision: String, events: Events)]]
  private var proposals: [UUID: ProposalRecord] = [:]
  private var lastNumber = 0

  init(authors: Set<String> = ["ada"], events: Events = ["e1": "Winter Concert"]) {
    self.authors = authors
    self.branches = ["main": [("r1", events)], "drafts": [("d1", events)]]
  }

  func signIn(_ user: String) -> String {
    lastNumber += 1
    sessions["token-\(lastNumber)"] = user
    return "token-\(lastNumber)"
  }

  func user(of token: String) -> String? { sessions[token] }

  /// Issues a grant when the policy lets the session's user author.
  func admit(token: String) throws -> String {
    try checkPolicy(token)
    lastNumber += 1
    grants["grant-\(lastNumber)"] = token
    return "grant-\(lastNumber)"
  }

  /// Whether `grant` is still honoured for `token`, under the same policy as admission.
  func check(grant: String, token: String) throws {
    guard grants[grant] == token else { throw ServerError.unauthorized }
    try checkPolicy(token)
  }

  func revoke(grant: String) { grants[grant] = nil }

  /// The policy changes: `user` may only read from now on.
  func demote(_ user: String) { authors.remove(user) }

  func head(of branch: BranchName) throws -> WorkspaceBranchReference {
    guard let last = branches[branch]?.last else { throw ServerError.noSuchRevision("\(branch)") }
    return WorkspaceBranchReference(branch: branch, revision: last.revision)
  }

  func events(at reference: WorkspaceBranchReference) throws -> Events {
    guard
      let found = branches[reference.branch]?.first(where: { $0.revision == reference.revision })
    else { throw ServerError.noSuchRevision("\(reference)") }
    return found.events
  }

  /// Someone else lands a change on `branch`.
  func commit(_ events: Events, on branch: BranchName) {
    lastNumber += 1
    branches[branch, default: []].append(("r\(lastNumber)", events))
  }

  /// Creates a proposal once per idempotency key; a retry answers the first record.
  func propose(
    _ changes: [String: String?], against baseline: WorkspaceBranchReference, key: UUID,
    grant: String, token: String
  ) throws -> ProposalRecord {
    try check(grant: grant, token: token)
    if let existing = proposals[key] { return existing }
    let head = try head(of: baseline.branch)
    guard head == baseline else {
      throw ServerError.headMoved(expected: baseline.revision, actual: head.revision)
    }
    lastNumber += 1
    let record = ProposalRecord(
      id: "P\(proposals.count + 1)", contentRevision: "c\(lastNumber)", target: baseline)
    proposals[key] = record
    return record
  }

  func proposalIDs() -> Set<String> { Set(proposals.values.map(\.id)) }

  private func checkPolicy(_ token: String) throws {
    guard let user = sessions[token] else { throw ServerError.unauthorized }
    guard authors.contains(user) else { throw ServerError.readOnly("\(user) may only read") }
  }
}
