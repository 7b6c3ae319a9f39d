import ComposableWorkspace
import Foundation
import ProcessTestSupport
import Testing

@testable import FossilWorkspace

@Suite("Fossil working copies", .requires(.fossil))
struct WorkingCopyTests {
  @Test func aPreparedCopyHoldsTheBaselineFilesAndReopensLocally() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      #expect(harness.baseline.branch == "trunk")
      #expect(harness.baseline.revision == (try await fixture.head(of: "trunk")))
      for (path, content) in FossilFixture.seed {
        #expect(try harness.read(path) == content)
      }
      #expect(try await harness.capture().isEmpty)
      try harness.edit("a.txt", "alpha, kept\n")
      await fixture.server.stop()
      // The server is gone: reopening is local, the edit and the baseline stay.
      let reopened = try await harness.fossil.prepareSource("catalogue")
      #expect(reopened.baseline == harness.baseline)
      #expect(try harness.read("a.txt") == "alpha, kept\n")
    }
  }

  @Test func refreshCarriesEditsOntoTheNewBaseline() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("a.txt", "alpha, mine\n")
      let moved = try await fixture.checkIn("other.txt", "theirs\n", on: "trunk")
      let refreshed = try await harness.fossil.refreshBaseline(harness.source, harness.baseline)
      #expect(refreshed == WorkspaceBranchReference(branch: "trunk", revision: moved))
      #expect(try harness.read("a.txt") == "alpha, mine\n")
      #expect(try harness.read("other.txt") == "theirs\n")
      let changes = try await harness.fossil.captureChanges(harness.source, refreshed)
      #expect(changes.changes.map(\.description) == ["M a.txt"])
    }
  }

  @Test func aFileChangedOnBothSidesRefusesTheRefreshAndChangesNothing() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try harness.edit("other.txt", "mine\n")
      try harness.edit("a.txt", "alpha, mine\n")
      _ = try await fixture.checkIn("other.txt", "theirs\n", on: "trunk")
      await #expect(
        throws: FossilWorkspaceError.localEditsWouldBeOverwritten("trunk", paths: ["other.txt"])
      ) {
        try await harness.fossil.refreshBaseline(harness.source, harness.baseline)
      }
      #expect(try harness.read("other.txt") == "mine\n")
      #expect(try harness.read("a.txt") == "alpha, mine\n")
      #expect(try await harness.fossil.prepareSource("catalogue").baseline == harness.baseline)
    }
  }

  @Test func selectingABranchInstallsExactlyItAndAnUnknownOneIsRefused() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      let festival = try await harness.fossil.selectBranch(harness.source, "festival")
      #expect(
        festival
          == WorkspaceBranchReference(
            branch: "festival", revision: try await fixture.head(of: "festival")))
      #expect(try harness.read("festival.txt") == "programme\n")
      #expect(try await harness.fossil.captureChanges(harness.source, festival).isEmpty)
      await #expect(throws: FossilWorkspaceError.branchNotFound("no-such-branch")) {
        try await harness.fossil.selectBranch(harness.source, "no-such-branch")
      }
      let trunk = try await harness.fossil.selectBranch(harness.source, "trunk")
      #expect(trunk == harness.baseline)
      #expect(
        !FileManager.default.fileExists(
          atPath: harness.source.files.appendingPathComponent("festival.txt").path))
    }
  }

  @Test func aSymbolicLinkInTheCopyIsRefusedNotFollowed() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      try FileManager.default.createSymbolicLink(
        atPath: harness.source.files.appendingPathComponent("link").path,
        withDestinationPath: "/etc")
      await #expect(throws: FossilWorkspaceError.unsupportedEntry(path: "link")) {
        try await harness.capture()
      }
    }
  }

  @Test func manifestsThatNameFilesOutsideTheCopyAreRefused() throws {
    let hash = String(repeating: "a", count: 64)
    for path in ["../escape", "/etc/passwd", "a//b", "a/./b", "a/../../b"] {
      let manifest = Data("C x\nF \(path) \(hash)\nU ada\n".utf8)
      #expect(throws: FossilError.self) { try FossilManifest.parse(manifest) }
    }
    #expect(throws: FossilError.self) { try FossilManifest.parse(Data("<html>".utf8)) }
    let encoded = try FossilManifest.parse(Data("C c\nF my\\sfile.txt \(hash) x\nU ada\n".utf8))
    #expect(encoded.files["my file.txt"] == .some(.init(hash: hash, executable: true)))
  }
}
