import ComposableWorkspaceTesting
import GitWorkspace
import ProcessTestSupport
import XCTest

/// The conformance kit under XCTest: a violation becomes an XCTest failure.
final class ConformanceKitXCTests: XCTestCase {
  func testGitClientKeepsTheIntegrationContract() async throws {
    try ExternalTool.git.skipUnlessAvailable()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    await assertWorkspaceContract {
      try await GitHarness.make(in: directory).subject()
    }
  }

  func testProposalsAreListedAndMergedUnderXCTest() async throws {
    try ExternalTool.git.skipUnlessAvailable()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let session = try await harness.git.prepareSource("xctest")
    try append("more\n", to: session.source.worktree.appendingPathComponent("a.txt"))
    let changes = try await harness.git.captureChanges(session.source, session.baseline)
    let record = try await harness.git.publishProposal(
      session.source, session.baseline, changes, request("XCTest"))
    let merged = try await harness.git.merge(proposalID: record.id)
    XCTAssertEqual(merged, .init(branch: "main", revision: record.contentRevision))
    let proposals = try await harness.git.listProposals()
    XCTAssertEqual(proposals.map(\.record), [record])
    XCTAssertEqual(proposals.map(\.isMerged), [true])
  }
}
