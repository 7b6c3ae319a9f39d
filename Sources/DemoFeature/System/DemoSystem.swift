import Foundation

/// The in-memory backend the demo runs against: accounts and sessions, an admission policy,
/// the published event catalogue (branches of numbered revisions), proposal records with
/// idempotency keys, a merge, and a configurable projection lag.
///
/// It is what a live backend would be, behind the same client interfaces, so the application
/// stories exercise the real feature graph. All state is isolated to the actor.
public actor DemoSystem {
  /// Tunables of the simulated backend.
  public struct Configuration: Sendable {
    /// How many proposal listings miss a record after it was created (projection lag).
    public var projectionLag: Int
    public init(projectionLag: Int = 1) {
      self.projectionLag = projectionLag
    }
  }

  private let configuration: Configuration
  private let accounts: [String: DemoAccount]
  private var state: DemoSystemSnapshot
  private var pendingProjection: [String: Int] = [:]

  /// A system seeded with the demo accounts and catalogue.
  public init(configuration: Configuration = Configuration()) {
    self.init(snapshot: .seed, configuration: configuration)
  }

  /// A system restored from a snapshot (see ``snapshot()``).
  public init(snapshot: DemoSystemSnapshot, configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.accounts = Dictionary(uniqueKeysWithValues: DemoAccount.all.map { ($0.username, $0) })
    self.state = snapshot
  }

  /// Everything but passwords, for `--state`.
  public func snapshot() -> DemoSystemSnapshot { state }

  // MARK: Sessions

  /// Signs in with a password; returns a new session.
  public func signIn(username: String, password: String) throws(DemoError) -> DemoSession {
    guard let account = accounts[username] else { throw .unknownAccount(username) }
    guard account.password == password else { throw .wrongPassword(username) }
    guard state.lastTokenNumber < DemoSystemSnapshot.largestCounter else {
      throw .counterExhausted("session")
    }
    state.lastTokenNumber += 1
    let session = DemoSession(token: "session-\(state.lastTokenNumber)", username: username)
    state.sessions[session.token] = username
    return session
  }

  /// Ends a session and every grant issued to it.
  public func signOut(token: String) {
    state.sessions[token] = nil
    state.grants = state.grants.filter { $0.value.sessionToken != token }
  }

  /// The account a live session belongs to.
  public func account(token: String) throws(DemoError) -> DemoAccount {
    guard let username = state.sessions[token], let account = accounts[username] else {
      throw .sessionExpired
    }
    return account
  }

  // MARK: Admission

  /// Admits the session's person to authoring when the policy allows it, issuing a grant.
  public func admit(token: String) throws(DemoError) -> DemoGrant {
    let account = try account(token: token)
    try Self.applyPolicy(to: account)
    guard state.lastGrantNumber < DemoSystemSnapshot.largestCounter else {
      throw .counterExhausted("grant")
    }
    state.lastGrantNumber += 1
    let grant = DemoGrant(
      id: "grant-\(state.lastGrantNumber)", username: account.username, sessionToken: token)
    state.grants[grant.id] = grant
    return grant
  }

  /// The grant, if it is still valid for this session and the policy still lets its holder
  /// author — the same question ``admit(token:)`` asks (``DemoError/admissionDenied(_:)``
  /// otherwise, for example for a grant issued before the account lost the right to author).
  public func validate(grantID: String, token: String) throws(DemoError) -> DemoGrant {
    guard let grant = state.grants[grantID], grant.sessionToken == token,
      state.sessions[token] == grant.username
    else { throw .grantInvalid }
    try Self.applyPolicy(to: account(token: token))
    return grant
  }

  /// The admission policy: authors may author, readers may not.
  private static func applyPolicy(to account: DemoAccount) throws(DemoError) {
    guard account.mayAuthor else {
      throw .admissionDenied("\(account.displayName) may read but not author")
    }
  }

  /// Ends a grant.
  public func revoke(grantID: String) {
    state.grants[grantID] = nil
  }

  /// Ends every grant, as an administrator revoking access would.
  public func revokeAllGrants() {
    state.grants = [:]
  }

  // MARK: Catalogue

  /// The branch names, sorted.
  public func branches() -> [String] { state.branches.keys.sorted() }

  /// The newest revision of `branch`.
  public func head(of branch: String) throws(DemoError) -> DemoRevision {
    guard let revision = state.branches[branch]?.last else { throw .noSuchBranch(branch) }
    return revision
  }

  /// One revision of `branch`.
  public func revision(_ id: String, of branch: String) throws(DemoError) -> DemoRevision {
    guard let revisions = state.branches[branch] else { throw .noSuchBranch(branch) }
    guard let revision = revisions.first(where: { $0.id == id }) else {
      throw .noSuchRevision(branch: branch, revision: id)
    }
    return revision
  }

  // MARK: Proposals

  /// Creates a proposal record from `changes` against `base` of `branch`, once per
  /// idempotency key of its author (keys are scoped to the person: another person's request
  /// with the same key is a request of its own, never an answer with someone else's record).
  ///
  /// - A retry with the same key and the same content answers the record created first.
  /// - The same key with another title or other content is a conflict.
  /// - When the branch head is not `base`, nothing is created: ``DemoError/headMoved``.
  public func createProposal(
    grantID: String, token: String, key: UUID, title: String, branch: String, base: String,
    changes: EventChangeSet
  ) throws(DemoError) -> DemoProposal {
    let author = try validate(grantID: grantID, token: token).username
    let contentRevision = DemoProposal.contentRevision(base: base, changes: changes)
    if let existing = proposal(author: author, key: key) {
      guard existing.title == title, existing.branch == branch, existing.baseRevision == base,
        existing.contentRevision == contentRevision
      else { throw .idempotencyConflict(key) }
      return existing
    }
    let head = try head(of: branch)
    guard head.id == base else { throw .headMoved(branch: branch, expected: base, actual: head.id) }
    let proposal = DemoProposal(
      id: "P\(state.proposals.count + 1)", title: title,
      author: author,
      branch: branch, baseRevision: base, contentRevision: contentRevision, changes: changes,
      idempotencyKey: key, status: .open
    )
    state.proposals.append(proposal)
    pendingProjection[proposal.id] = configuration.projectionLag
    return proposal
  }

  /// The proposal `author` created under `key`, if any.
  public func proposal(author: String, key: UUID) -> DemoProposal? {
    state.proposals.first { $0.author == author && $0.idempotencyKey == key }
  }

  /// The proposals a listing shows: records younger than the projection lag are not there yet.
  public func listProposals() -> [DemoProposal] {
    let visible = state.proposals.filter { (pendingProjection[$0.id] ?? 0) == 0 }
    for (id, remaining) in pendingProjection where remaining > 0 {
      pendingProjection[id] = remaining - 1
    }
    return visible
  }

  /// Every proposal record, lag or not (the store of record).
  public func allProposals() -> [DemoProposal] { state.proposals }

  /// Lands an open proposal on its branch as a new revision (a reviewer's action); when the
  /// branch changed an event the proposal changes since its base, lands nothing and throws
  /// ``DemoError/mergeConflict(proposal:events:)`` (no row of either side is lost).
  public func merge(proposalID: String) throws(DemoError) -> DemoRevision {
    guard let index = state.proposals.firstIndex(where: { $0.id == proposalID }) else {
      throw .noSuchProposal(proposalID)
    }
    let proposal = state.proposals[index]
    guard proposal.status == .open else { throw .proposalNotOpen(proposalID) }
    let head = try head(of: proposal.branch)
    let base = try revision(proposal.baseRevision, of: proposal.branch)
    let conflicts = proposal.changes.conflicts(base: base.events, head: head.events)
    guard conflicts.isEmpty else {
      throw .mergeConflict(proposal: proposalID, events: conflicts)
    }
    let number = (state.branches[proposal.branch]?.count ?? 0) + 1
    let revision = DemoRevision(id: "r\(number)", events: proposal.changes.applied(to: head.events))
    state.branches[proposal.branch, default: []].append(revision)
    state.proposals[index].status = .merged(into: revision.id)
    pendingProjection[proposalID] = 0
    return revision
  }
}
