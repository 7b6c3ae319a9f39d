import Foundation
import WorkspaceDemoFeature

/// The system a ``DemoService`` serves: accounts, sessions, admission and grants, the
/// catalogue and its proposals. The in-memory `DemoSystem` is one (the default, forgotten when
/// the process ends); ``DurableDemoSystem`` keeps it all in a SQLite file (`serve --database`).
///
/// Every answer is final when it returns: a durable system has committed what it reports.
public protocol ServedSystem: Sendable {
  /// Signs in with a password; answers a new session.
  func signIn(username: String, password: String) async throws(DemoError) -> DemoSession
  /// Ends a session and every grant issued to it.
  func signOut(token: String) async throws(DemoError)
  /// The account a live session belongs to.
  func account(token: String) async throws(DemoError) -> DemoAccount
  /// Admits the session's person to authoring when the policy allows it, issuing a grant.
  func admit(token: String) async throws(DemoError) -> DemoGrant
  /// The grant, if still valid for this session and its holder may still author.
  func validate(grantID: String, token: String) async throws(DemoError) -> DemoGrant
  /// Ends a grant.
  func revoke(grantID: String) async throws(DemoError)
  /// Ends every grant, as an administrator revoking access would.
  func revokeAllGrants() async throws(DemoError)
  /// The branch names, sorted.
  func branches() async throws(DemoError) -> [String]
  /// The newest revision of `branch`.
  func head(of branch: String) async throws(DemoError) -> DemoRevision
  /// One revision of `branch`.
  func revision(_ id: String, of branch: String) async throws(DemoError) -> DemoRevision
  /// Creates a proposal once per idempotency key of its author (see
  /// `DemoSystem.createProposal`).
  func createProposal(
    grantID: String, token: String, key: UUID, title: String, branch: String, base: String,
    changes: EventChangeSet
  ) async throws(DemoError) -> DemoProposal
  /// The proposal `author` created under `key`, if any.
  func proposal(author: String, key: UUID) async throws(DemoError) -> DemoProposal?
  /// The proposals a listing shows (a system may show new ones only after a projection lag).
  func listProposals() async throws(DemoError) -> [DemoProposal]
  /// Every proposal record.
  func allProposals() async throws(DemoError) -> [DemoProposal]
  /// Lands an open proposal on its branch as a new revision, or reports the events it
  /// conflicts on (``DemoError/mergeConflict(proposal:events:)``) and lands nothing.
  func merge(proposalID: String) async throws(DemoError) -> DemoRevision
}

extension DemoSystem: ServedSystem {}
