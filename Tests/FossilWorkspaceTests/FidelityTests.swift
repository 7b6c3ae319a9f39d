import ComposableWorkspace
import Foundation
import ProcessTestSupport
import Testing

@testable import FossilWorkspace

@Suite("Fossil fidelity", .requires(.fossil))
struct FidelityTests {
  /// Every kind of file a change set can hold goes through publish → merge → refresh byte for
  /// byte, as the server's own `fossil cat` and `fossil artifact` show it.
  @Test func everyKindOfFileRoundTripsByteForByte() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      let files = harness.source.files
      let contents: [String: Data] = [
        "a.txt": Data("alpha\r\nwith CRLF\r\n".utf8),  // LF → CRLF
        "crlf.txt": Data("one\r\ntwo\r\n".utf8),
        "lf.txt": Data("one\ntwo\n".utf8),
        "mixed.txt": Data("cr\rlf\ncrlf\r\n".utf8),
        "binary.bin": Data([0, 1, 2, 0xFF, 0xFE, 0, 0x0D, 0x0A]),
        "empty.txt": Data(),
        "tools/run.sh": Data("#!/bin/sh\necho hi\n".utf8),
        "notes/renamed.txt": Data("charlie\n".utf8),  // notes/c.txt, renamed
      ]
      for (path, data) in contents {
        let url = files.appendingPathComponent(path)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
      }
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: files.appendingPathComponent("tools/run.sh").path)
      try FileManager.default.removeItem(at: files.appendingPathComponent("b.txt"))
      try FileManager.default.removeItem(at: files.appendingPathComponent("notes/c.txt"))
      let changes = try await harness.capture()
      #expect(
        changes.changes.map(\.description) == [
          "M a.txt", "D b.txt", "A binary.bin", "A crlf.txt", "A empty.txt", "A lf.txt",
          "A mixed.txt", "D notes/c.txt", "A notes/renamed.txt", "A tools/run.sh",
        ])
      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, changes, WorkspaceHarness.request("Every kind"))

      for (path, data) in contents {
        #expect(try await fixture.cat(path, at: record.contentRevision) == data, "\(path)")
      }
      let manifest = try await fixture.artifact(record.contentRevision)
      #expect(manifest.contains("F tools/run.sh ") && manifest.contains(" x\n"))
      #expect(!manifest.contains("F b.txt "))
      #expect(!manifest.contains("F notes/c.txt "))

      let merged = try await harness.fossil.merge(proposalID: record.id)
      for (path, data) in contents {
        #expect(try await fixture.cat(path, at: merged.revision) == data, "merged \(path)")
      }

      // The author refreshes onto their own merge: nothing is in the way, every byte stays.
      let refreshed = try await harness.fossil.refreshBaseline(harness.source, harness.baseline)
      #expect(refreshed == merged)
      for (path, data) in contents {
        #expect(try Data(contentsOf: files.appendingPathComponent(path)) == data, "\(path)")
      }
      #expect(try await harness.fossil.captureChanges(harness.source, refreshed).isEmpty)
    }
  }

  /// A change of the executable bit alone is a change, both ways; an added dotfile, and an
  /// added file the repository's versioned ignore-glob matches, are proposed like any other.
  @Test func theExecutableBitDotfilesAndIgnoredNamesAreChangesToo() async throws {
    try await FossilFixture.with { fixture in
      try await fixture.checkIn(".fossil-settings/ignore-glob", "*.log\n", on: "trunk")
      let harness = try await WorkspaceHarness.make(fixture)
      let other = try await WorkspaceHarness.make(fixture)
      let files = harness.source.files
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o755], ofItemAtPath: files.appendingPathComponent("a.txt").path)
      try Data("SECRET=none\n".utf8).write(to: files.appendingPathComponent(".env"))
      try Data("kept\n".utf8).write(to: files.appendingPathComponent("debug.log"))
      let changes = try await harness.capture()
      #expect(changes.changes.map(\.description) == ["A .env", "M a.txt", "A debug.log"])

      let record = try await harness.fossil.publishProposal(
        harness.source, harness.baseline, changes, WorkspaceHarness.request("Modes"))
      let manifest = try await fixture.artifact(record.contentRevision)
      let entries = manifest.split(separator: "\n").filter { $0.hasPrefix("F ") }
      #expect(entries.contains { $0.hasPrefix("F a.txt ") && $0.hasSuffix(" x") }, "\(entries)")
      #expect(entries.contains { $0.hasPrefix("F .env ") }, "\(entries)")
      #expect(entries.contains { $0.hasPrefix("F debug.log ") }, "\(entries)")

      // Another workspace, on the old baseline, refreshes onto the merge: the bit arrives.
      let merged = try await harness.fossil.merge(proposalID: record.id)
      #expect(try await other.fossil.refreshBaseline(other.source, other.baseline) == merged)
      let mode = try FileManager.default.attributesOfItem(
        atPath: other.source.files.appendingPathComponent("a.txt").path)[.posixPermissions]
      #expect((mode as? NSNumber)?.intValue == 0o755)
      #expect(try other.read("a.txt") == "alpha\n")
      #expect(try await other.fossil.captureChanges(other.source, merged).isEmpty)
    }
  }
}
