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

  /// Merged is read from Fossil's merge graph, at any depth: 501 check-ins after the merge
  /// (c37a104 searched the newest 500 comments) the proposal is still merged.
  @Test func aMergedProposalStaysMergedHoweverMuchHistoryFollows() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      let record = try await harness.proposeAnEdit()
      let merged = try await harness.fossil.merge(proposalID: record.id)
      // 501 check-ins by one shell loop (a process per check-in from Swift takes twice as long).
      let script = fixture.directory.appendingPathComponent("later-check-ins")
      let fossilPath = FossilCommand().executable.path
      try await installExecutable(
        """
        #!/bin/sh
        for i in $(seq 1 501); do
          echo "later $i" > other.txt
          '\(fossilPath)' commit --hash --no-warnings --no-prompt -m "Later $i" >/dev/null || exit 1
        done
        """, at: script)
      let repository = fixture.repository
      try await repository.fossil.withCheckout(
        of: repository.file, at: "trunk", in: fixture.directory
      ) { checkout in
        _ = try await FossilCommand(executable: script, home: fixture.directory).run(
          [], in: checkout)
      }
      let count = try await repository.sql(
        "SELECT count(*) FROM event WHERE type = 'ci' AND comment LIKE 'Later %';")
      #expect(count == "501\n")
      let listed = try await harness.fossil.listProposals()
      #expect(listed.map(\.id) == [record.id])
      #expect(listed.first?.mergedInto == merged.revision)
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
