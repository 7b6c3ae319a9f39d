import ComposableCore
import ComposableTesting
import ComposableWorkspace
import ComposableWorkspaceTesting
import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing

@Suite("Conformance kit", .requires(.git))
struct ConformanceKitTests {
  @Test func theGitClientKeepsEveryRule() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let violations = await checkWorkspaceContract {
      try await GitHarness.make(in: directory).subject()
    }
    #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
  }

  @Test func aPublishThatCreatesARecordPerCallBreaksRetrySafety() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let violations = await checkWorkspaceContract(rules: [.retrySafePublication]) {
      let harness = try await GitHarness.make(in: directory)
      var client = harness.git.client
      let publish = client.publishProposal
      client.publishProposal = { source, baseline, changes, request in
        // Broken: a fresh key per call, so every retry creates another record.
        var fresh = request
        fresh.idempotencyKey = UUID()
        return try await publish(source, baseline, changes, fresh)
      }
      return harness.subject(client: client)
    }
    #expect(violations.map(\.rule) == [.retrySafePublication, .retrySafePublication])
    #expect(violations.contains { $0.message.contains("created 2 records") })
    #expect(
      violations.allSatisfy {
        $0.description.hasPrefix("[retrySafePublication] publishProposal is retry-safe")
      })
  }

  @Test func aSelectionAnsweringAnotherBranchBreaksExactSelection() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let violations = await checkWorkspaceContract(rules: [.exactBranchSelection]) {
      let harness = try await GitHarness.make(in: directory)
      var client = harness.git.client
      let prepare = client.prepareSource
      client.selectBranch = { source, _ in
        // Broken: ignores the request and answers the default branch.
        WorkspaceSession(source: source, baseline: try await prepare("catalogue").baseline)
      }
      return harness.subject(client: client)
    }
    #expect(violations.map(\.rule) == [.exactBranchSelection])
    #expect(violations.first?.message.contains("selectBranch(published) answered main@") == true)
  }

  @Test func aClientThatNeverChecksAuthorizationIsNamedPerEndpoint() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let violations = await checkWorkspaceContract(rules: [.authorizationChecked]) {
      try await GitHarness.make(in: directory).subject(revoke: false)
    }
    #expect(violations.map(\.rule) == Array(repeating: .authorizationChecked, count: 6))
    for endpoint in [
      "prepareSource", "refreshBaseline", "selectBranch", "captureChanges", "publishProposal",
    ] {
      #expect(
        violations.contains {
          $0.message.hasPrefix("\(endpoint) succeeded after the capability was revoked")
        })
    }
    #expect(
      violations.contains {
        $0.message.contains("created") && $0.message.contains("without a valid capability")
      })
  }

  @Test func aPreparationThatAdvancesTheBaselineIsCaught() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let violations = await checkWorkspaceContract(rules: [
      .preparationKeepsBaseline, .preparationKeepsWritableContent,
    ]) {
      let harness = try await GitHarness.make(in: directory)
      var client = harness.git.client
      let prepare = client.prepareSource
      let refresh = client.refreshBaseline
      client.prepareSource = { id in
        // Broken: silently moves to the remote's newest head on every open.
        let session = try await prepare(id)
        return try await refresh(session.source, session.baseline)
      }
      return harness.subject(client: client)
    }
    #expect(violations.map(\.rule) == [.preparationKeepsBaseline])
    #expect(violations.first?.message.contains("the baseline was silently advanced") == true)
  }

  @Test func aRecordCreatedBeforeTheMismatchIsCaught() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let violations = await checkWorkspaceContract(rules: [.headMismatchBeforeRecord]) {
      let harness = try await GitHarness.make(in: directory)
      let remote = harness.remote
      var client = harness.git.client
      let publish = client.publishProposal
      client.publishProposal = { source, baseline, changes, request in
        let head = try await remote.head(of: baseline.branch)
        if head != baseline.revision {
          // Broken: pushes the record first, then notices the moved head.
          let key = "refs/proposals/\(request.idempotencyKey.uuidString.lowercased())"
          try await remote.git.run(["update-ref", key, head], in: remote.remote)
          throw WorkspaceHeadMismatch(
            expected: baseline, actual: .init(branch: baseline.branch, revision: head))
        }
        return try await publish(source, baseline, changes, request)
      }
      return harness.subject(client: client)
    }
    #expect(violations.allSatisfy { $0.rule == .headMismatchBeforeRecord })
    #expect(
      violations.contains { $0.message.contains("were created although the target had moved") },
      "\(violations)")
  }

  @Test func assertReportsEachViolationThroughTheReporter() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recorder = IssueRecorder()
    await assertWorkspaceContract(
      rules: [.exactBranchSelection, .emptyChangeSetWhenUnedited], reporter: recorder
    ) {
      let harness = try await GitHarness.make(in: directory)
      var client = harness.git.client
      client.selectBranch = { source, _ in
        WorkspaceSession(
          source: source, baseline: WorkspaceBranchReference(branch: "elsewhere", revision: "0"))
      }
      return harness.subject(client: client)
    }
    #expect(recorder.messages.count == 2)
    #expect(
      recorder.messages.first?.hasPrefix("Workspace contract violated: [exactBranchSelection]")
        == true)
  }

  @Test func assertRecordsASwiftTestingIssue() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    await withKnownIssue {
      await assertWorkspaceContract(rules: [.emptyChangeSetWhenUnedited]) {
        let harness = try await GitHarness.make(in: directory)
        var client = harness.git.client
        let capture = client.captureChanges
        client.captureChanges = { source, baseline in
          var changes = try await capture(source, baseline)
          changes.changes.append(.modified(path: "phantom.txt"))
          return changes
        }
        return harness.subject(client: client)
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("[emptyChangeSetWhenUnedited]") }
    }
  }

  @Test func aSubjectThatCannotBeMadeIsReportedForEachRule() async {
    struct NoRemote: Error {}
    let violations: [WorkspaceRuleViolation] = await checkWorkspaceContract(rules: [
      .completeSession, .sourceOwnership,
    ]) {
      () async throws -> WorkspaceContractSubject<GitWorkingCopy, GitChangeSet> in
      throw NoRemote()
    }
    #expect(violations.map(\.rule) == [.completeSession, .sourceOwnership])
    #expect(violations.allSatisfy { $0.message.hasPrefix("the subject could not be made") })
  }
}
