import ComposableWorkspace
import SQLiteWorkspace
import WorkspaceDemoFeature

/// The demo's seed catalogue in a SQLite remote: `published` with the in-memory seed's
/// published events, and `festival` with the festival's.
public enum CatalogueSeed {
  /// The branch the catalogue is published on, and the other seeded branch.
  public static let publishedBranch: BranchName = "published"
  public static let festivalBranch: BranchName = "festival"

  /// Seeds `remote` when it has no branches but the seed's own (none, or part of them: a
  /// seeding a crash interrupted), creating whichever of the two it lacks, each in one
  /// transaction. A remote with other branches is left alone. Answers whether it created any.
  @discardableResult
  public static func completeSeed(of remote: SQLiteRemoteStore) async throws -> Bool {
    let system = DemoSystem(snapshot: .seed)
    let existing = Set(try await remote.branches().map(\.branch))
    guard existing.isSubset(of: [publishedBranch, festivalBranch]) else { return false }
    var created = false
    for (branch, message) in [
      (publishedBranch, "Publish the catalogue"), (festivalBranch, "Plan the festival"),
    ] where !existing.contains(branch) {
      let events = try await system.head(of: branch.rawValue).events
      try await remote.createBranch(branch, author: "demo-cli", message: message) { db in
        try db.execute(EventTable.schema)
        try EventTable.write(events, to: db)
      }
      created = true
    }
    return created
  }
}
