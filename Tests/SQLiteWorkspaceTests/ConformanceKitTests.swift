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

  @Test("A client whose retry compares heads before looking up its own proposal fails the kit")
  func aRetryThatForgetsItsRecordIsCaught() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let violations = await checkWorkspaceContract(
      rules: [.retryAfterTargetMoved, .retrySafePublication, .headMismatchBeforeRecord]
    ) {
      let harness = try await SQLiteHarness.make(in: folder.url)
      var subject = harness.subject()
      let publish = subject.client.publishProposal
      let remote = harness.remote
      subject.client.publishProposal = { source, baseline, changes, request in
        // Broken: the head first, so a retry after the target moved is a mismatch.
        let head = try await remote.head(of: baseline.branch)
        guard head == baseline else {
          throw WorkspaceHeadMismatch(expected: baseline, actual: head)
        }
        return try await publish(source, baseline, changes, request)
      }
      return subject
    }
    #expect(violations.map(\.rule) == [.retryAfterTargetMoved], "\(violations)")
    #expect(violations.first?.message.contains("did not look up its own proposal first") == true)
  }
}
