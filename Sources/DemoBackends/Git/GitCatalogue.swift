import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import DemoBackendInterface
import Foundation
import GitWorkspace
import WorkingCopySupport
import WorkspaceDemoFeature

/// The catalogue on a Git remote, read and reviewed: revision snapshots, branch heads, the
/// proposals in the demo's shape, and the reviewer's merge.
///
/// Reads go through a local bare mirror (`<root>/catalogue.git`, fetched when a revision is
/// not there yet or a listing needs the newest state); heads are asked of the remote
/// (`git ls-remote`). The listing and the merge are the Git client's own
/// (``GitWorkspaceClient/listProposals()``, ``GitWorkspaceClient/merge(proposalID:)``), run by a
/// client whose capability is the demo's reviewer: reviewing is not authoring, as on the
/// in-memory system.
struct GitCatalogue: ReviewedCatalogue {
  /// The remote, as git is given it.
  let remote: String
  /// The reviewer's Git client (listing, merging).
  let reviewer: GitWorkspaceClient
  let reader: EventReader
  private let mirror: URL

  /// A catalogue of `remote`, keeping its mirror (and the reviewer's repository) under `root`.
  init(remote: String, root: URL, git: GitProcess = GitProcess()) {
    self.remote = remote
    self.reader = EventReader(git: git)
    self.mirror = root.appendingPathComponent("catalogue.git", isDirectory: true)
    self.reviewer = GitWorkspaceClient(
      configuration: GitWorkspaceConfiguration(
        remote: remote, root: root, defaultBranch: "published"),
      capability: { Self.reviewerContext }
    )
  }

  /// Who merges: the demo's reviewer (not one of the accounts that sign in).
  static let reviewerContext = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "reviewer"),
    grant: AuthoringGrant(rawValue: "reviewer"),
    capabilities: [.edit, .publish]
  )

  private var git: GitProcess { reader.git }
  private var namespace: String { reviewer.configuration.proposalNamespace }

  var location: String { remote }

  func merge(proposalID: String) async throws -> WorkspaceBranchReference {
    try await reviewer.merge(proposalID: proposalID)
  }

  // MARK: CatalogueReader

  func head(of branch: BranchName) async -> String? {
    (try? await heads())?[branch.rawValue]
  }

  func branches() async -> [String] {
    ((try? await heads()) ?? [:]).keys.sorted()
  }

  /// A proposal by its record id (`refs/proposals/<key>`) or its bare key.
  func proposal(named id: String) async -> DemoProposal? {
    let key = "/" + id.lowercased()
    return await allProposals().first { $0.id == id || $0.id.hasSuffix(key) }
  }

  // MARK: Reading

  /// The events of commit `revision`, fetched into the mirror when it is not there yet.
  func events(atRevision revision: String) async throws -> [Event] {
    try await SerialGate.shared.run(mirror.path) {
      try await self.openMirror()
      if try await self.reader.commit(revision, in: self.mirror) == nil {
        try await self.fetch()
      }
    }
    return try await reader.events(at: revision, in: mirror)
  }

  /// The remote's branches and their heads (one `git ls-remote`).
  func heads() async throws -> [String: String] {
    try await SerialGate.shared.run(mirror.path) { try await self.openMirror() }
    let listing = try await git.text(["ls-remote", "--heads", "origin"], in: mirror)
    var heads: [String: String] = [:]
    for line in listing.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2, parts[1].hasPrefix("refs/heads/") else { continue }
      heads[String(parts[1].dropFirst("refs/heads/".count))] = String(parts[0])
    }
    return heads
  }

  /// Every proposal on the remote in the demo's shape: its change set (its parent's events
  /// against its own), open or merged — and then into which revision of its branch.
  func listing() async throws -> [DemoProposal] {
    let proposals = try await reviewer.listProposals()
    try await SerialGate.shared.run(mirror.path) {
      try await self.openMirror()
      try await self.fetch()
    }
    var listed: [DemoProposal] = []
    for proposal in proposals {
      let record = proposal.record
      let commit = record.contentRevision
      let base = record.target.revision
      let changes = EventChangeSet.between(
        baseline: try await reader.events(at: base, in: mirror),
        working: try await reader.events(at: commit, in: mirror))
      var status = DemoProposal.Status.open
      if proposal.isMerged,
        let head = try await reader.commit(
          "refs/remotes/origin/\(record.target.branch)", in: mirror)
      {
        status = .merged(into: try await landing(of: commit, on: head))
      }
      let key = record.id.split(separator: "/").last.map(String.init) ?? ""
      listed.append(
        DemoProposal(
          id: record.id, title: proposal.title, author: Self.name(of: proposal.author),
          branch: record.target.branch.rawValue, baseRevision: base, contentRevision: commit,
          changes: changes, idempotencyKey: UUID(uuidString: key),
          status: status))
    }
    return listed
  }

  /// The revision of the branch (at `head`) that landed `commit`: `commit` itself when the
  /// branch was fast-forwarded to it, else the oldest commit of the branch's first-parent
  /// line that contains it (the merge commit).
  func landing(of commit: String, on head: String) async throws -> String {
    guard commit != head else { return commit }
    let line = try await git.text(
      ["rev-list", "--first-parent", "--parents", "\(commit)..\(head)"], in: mirror
    ).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    let descendants = Set(
      try await git.text(["rev-list", "--ancestry-path", "\(commit)..\(head)"], in: mirror)
        .split(separator: "\n").map(String.init))
    guard let oldest = line.last(where: { $0.first.map(descendants.contains) ?? false }),
      let landed = oldest.first
    else { return commit }
    return oldest.dropFirst().first == commit ? commit : landed
  }

  /// `Ada <ada@…>` → `Ada`.
  static func name(of author: String) -> String {
    guard let bracket = author.range(of: " <") else { return author }
    return String(author[..<bracket.lowerBound])
  }

  // MARK: Mirror

  /// Creates the mirror when missing (beside its final path, then renamed into place).
  private func openMirror() async throws {
    guard !FileManager.default.fileExists(atPath: mirror.appendingPathComponent("HEAD").path) else {
      return
    }
    let parent = mirror.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    let partial = parent.appendingPathComponent("catalogue.git.partial-\(UUID().uuidString)")
    do {
      try await git.run(["init", "--quiet", "--bare", partial.path])
      try await git.run(["remote", "add", "origin", remote], in: partial)
      try FileManager.default.moveItem(at: partial, to: mirror)
    } catch {
      try? FileManager.default.removeItem(at: partial)
      throw error
    }
  }

  /// Fetches every branch and proposal into the mirror.
  private func fetch() async throws {
    try await git.run(
      [
        "fetch", "--quiet", "--prune", "--no-tags", "--no-write-fetch-head", "origin",
        "+refs/heads/*:refs/remotes/origin/*", "+\(namespace)/*:\(namespace)/*",
      ],
      in: mirror)
  }
}

extension UUID {
  /// The bytes of the nil UUID.
  fileprivate static let zero: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}
