import ComposableWorkspace
import SQLiteWorkspace
import WorkspaceDemoFeature

/// The demo's seed catalogue in a SQLite remote: `published` with the in-memory seed's
/// published events, and `festival` on top of it with the festival's events.
public enum CatalogueSeed {
  /// The branch the catalogue is published on, and the other seeded branch.
  public static let publishedBranch: BranchName = "published"
  public static let festivalBranch: BranchName = "festival"

  /// Seeds `remote`, which must have no branches yet.
  public static func seed(_ remote: SQLiteRemoteStore) async throws {
    let system = DemoSystem(snapshot: .seed)
    let published = try await system.head(of: publishedBranch.rawValue).events
    let festival = try await system.head(of: festivalBranch.rawValue).events
    try await remote.createBranch(
      publishedBranch, author: "demo-cli", message: "Publish the catalogue"
    ) { db in
      try db.execute(EventTable.schema)
      try EventTable.write(published, to: db)
    }
    try await remote.createBranch(festivalBranch, from: publishedBranch)
    try await remote.commit(to: festivalBranch, author: "demo-cli", message: "Plan the festival") {
      db in try EventTable.write(festival, to: db)
    }
  }
}
