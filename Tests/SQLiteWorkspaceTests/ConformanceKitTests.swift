import ComposableWorkspace
import ComposableWorkspaceTesting
import Foundation
import SQLiteWorkspace
import Testing

@Suite("The SQLite workspace keeps the integration contract")
struct ConformanceKitTests {
  @Test func everyRuleHoldsAgainstARemoteStore() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    await assertWorkspaceContract {
      try await SQLiteHarness.make(in: folder.url).subject()
    }
  }
}
