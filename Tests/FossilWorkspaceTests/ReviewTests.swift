import ComposableWorkspace
import Foundation
import ProcessTestSupport
import Testing

@testable import FossilWorkspace

@Suite("Fossil review", .requires(.fossil))
struct ReviewTests {
  @Test func aReviewerMergesAProposalAsAFossilMergeThatClosesItsBranch() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("a.txt", "alpha, proposed\n")
      let request = WorkspaceHarness.request("Propose a")
      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, try await harness.capture(), request)
      // Someone else changed another file meanwhile: the merge is a commit on top of it.
      let moved = try await fixture.checkIn("other.txt", "meanwhile\n", on: "trunk")

      let listed = try await harness.fossil.listProposals()
      #expect(listed.map(\.id) == [record.id])
      #expect(listed.first?.target == harness.baseline)
      #expect(listed.first?.head == record.contentRevision)
      #expect(listed.first?.title == "Propose a")
      #expect(listed.first?.key == request.idempotencyKey)
      #expect(listed.first?.mergedInto == nil)

      let merged = try await harness.fossil.merge(proposalID: record.id)
      #expect(merged.branch == "trunk")
      #expect(merged.revision != moved)
      #expect(try await fixture.head(of: "trunk") == merged.revision)
      let repository = FossilRepository(session: harness.session)
      let files = try await repository.files(of: merged.revision)
      let a = try await repository.artifact(try #require(files["a.txt"]).hash)
      let other = try await repository.artifact(try #require(files["other.txt"]).hash)
      #expect(String(decoding: a, as: UTF8.self) == "alpha, proposed\n")
      #expect(String(decoding: other, as: UTF8.self) == "meanwhile\n")
      #expect(try await harness.fossil.listProposals().first?.mergedInto == merged.revision)
      // What a Fossil user sees: the merge names the proposal as its merge parent, and closes
      // its branch, so `fossil leaves` lists trunk's head alone.
      let manifest = try await fixture.artifact(merged.revision)
      #expect(manifest.contains("P \(moved) \(record.contentRevision)"))
      #expect(manifest.contains("T +closed \(record.contentRevision)"))
      let leaves = try await fixture.fossil(["leaves"])
      #expect(!leaves.contains(String(record.contentRevision.prefix(10))), "leaves: \(leaves)")
      #expect(leaves.contains(String(merged.revision.prefix(10))))

      // Merging again changes nothing; the bare key names the proposal too.
      let again = try await harness.fossil.merge(proposalID: request.idempotencyKey.uuidString)
      #expect(again == merged)
    }
  }

  @Test func aProposalWhoseFilesTheTargetChangedTooIsAConflict() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("a.txt", "alpha, proposed\n")
      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, try await harness.capture(), WorkspaceHarness.request())
      let moved = try await fixture.checkIn("a.txt", "alpha, theirs\n", on: "trunk")
      await #expect(
        throws: FossilWorkspaceError.mergeConflict(proposal: record.id, paths: ["a.txt"])
      ) {
        try await harness.fossil.merge(proposalID: record.id)
      }
      #expect(try await fixture.head(of: "trunk") == moved)
      await #expect(throws: FossilWorkspaceError.proposalNotFound("proposal-nothing")) {
        try await harness.fossil.merge(proposalID: "proposal-nothing")
      }
    }
  }
}

@Suite("Fossil public reading", .requires(.fossil))
struct PublicReadingTests {
  /// Listing proposals is a read: a user who may only read (linus, `o`), and a client signed
  /// out, see every proposal the server holds, merged or not.
  @Test func aReaderAndASignedOutClientSeeEveryProposal() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("a.txt", "alpha, proposed\n")
      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, try await harness.capture(), WorkspaceHarness.request())
      let merged = try await harness.fossil.merge(proposalID: record.id)

      let reader = try await fixture.signedIn(FossilFixture.linus)
      let signedOut = FossilSession(baseURL: fixture.baseURL)
      for (who, session) in [("linus", reader), ("signed out", signedOut)] {
        let client = FossilWorkspaceClient(
          session: session,
          configuration: FossilWorkspaceConfiguration(root: fixture.workspaces("read-\(who)")),
          capability: { nil })
        let listed = try await client.listProposals()
        #expect(listed.map(\.id) == [record.id], "\(who)")
        #expect(listed.first?.mergedInto == merged.revision, "\(who)")
        #expect(listed.first?.target == harness.baseline, "\(who)")
      }
    }
  }
}
