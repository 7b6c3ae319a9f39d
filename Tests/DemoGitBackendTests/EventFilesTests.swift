import Foundation
import Testing
import WorkspaceDemoFeature

@testable import DemoGitBackend

@Suite("Events as files")
struct EventFilesTests {
  @Test(
    "One file per event with a safe name; unchanged files are not rewritten; gone events are deleted"
  )
  func roundTrip() throws {
    let worktree = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: worktree) }
    #expect(EventFiles.fileName(for: "e1") == "e1.json")
    #expect(EventFiles.fileName(for: "../x y") == "%2E.%2Fx%20y.json")
    let events = [
      Event(id: "e10", title: "Ten", date: "2027-01-10", venue: "Hall"),
      Event(id: "e2", title: "Two", date: "2027-01-02", venue: "Hall"),
      Event(id: "../x y", title: "Odd", date: "TBA", venue: "TBA"),
    ]
    try EventFiles.write(events, to: worktree)
    #expect(try EventFiles.events(in: worktree).map(\.id) == ["../x y", "e2", "e10"])
    let two = worktree.appendingPathComponent("events/e2.json")
    #expect(
      try String(contentsOf: two, encoding: .utf8)
        == "{\n  \"date\" : \"2027-01-02\",\n  \"id\" : \"e2\",\n  \"title\" : \"Two\",\n  \"venue\" : \"Hall\"\n}\n"
    )

    // A file in another layout holding the same event is left as it is.
    let compact = #"{"id":"e2","title":"Two","date":"2027-01-02","venue":"Hall"}"#
    try Data(compact.utf8).write(to: two)
    var edited = events
    edited[0].title = "Ten!"
    edited.remove(at: 2)
    try EventFiles.write(edited, to: worktree)
    #expect(try String(contentsOf: two, encoding: .utf8) == compact)
    #expect(try EventFiles.events(in: worktree).map(\.title) == ["Two", "Ten!"])
    #expect(
      !FileManager.default.fileExists(
        atPath: worktree.appendingPathComponent("events/%2E.%2Fx%20y.json").path))
  }

  @Test(
    "Two files holding one event, or a file that is not an event, are errors that name the files")
  func errors() throws {
    let worktree = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: worktree) }
    try EventFiles.write([Event(id: "e1", title: "One", date: "TBA", venue: "TBA")], to: worktree)
    try FileManager.default.copyItem(
      at: worktree.appendingPathComponent("events/e1.json"),
      to: worktree.appendingPathComponent("events/copy.json"))
    #expect(
      throws: EventFileError.duplicate(id: "e1", paths: ["events/copy.json", "events/e1.json"])
    ) {
      try EventFiles.events(in: worktree)
    }
    try Data("[]".utf8).write(to: worktree.appendingPathComponent("events/copy.json"))
    #expect(
      throws: EventFileError.unreadable(
        path: "events/copy.json", reason: "it does not hold one event as JSON")
    ) {
      try EventFiles.events(in: worktree)
    }
  }

  @Test("A symbolic link among the events, or as the events folder, is never followed")
  func symbolicLinks() throws {
    let worktree = try temporaryDirectory()
    let outside = try temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: worktree)
      try? FileManager.default.removeItem(at: outside)
    }
    let secret = Event(id: "s1", title: "SECRET", date: "TBA", venue: "TBA")
    try EventFiles.encoded(secret).write(to: outside.appendingPathComponent("secret.json"))
    try EventFiles.write([Event(id: "e1", title: "One", date: "TBA", venue: "TBA")], to: worktree)
    let link = worktree.appendingPathComponent("events/e2.json")
    try FileManager.default.createSymbolicLink(
      at: link, withDestinationURL: outside.appendingPathComponent("secret.json"))
    #expect(
      throws: EventFileError.unreadable(
        path: "events/e2.json", reason: "it is a symbolic link; it is not followed")
    ) { try EventFiles.events(in: worktree) }

    try FileManager.default.removeItem(at: worktree.appendingPathComponent("events"))
    try FileManager.default.createSymbolicLink(
      at: worktree.appendingPathComponent("events"), withDestinationURL: outside)
    #expect(
      throws: EventFileError.unreadable(
        path: "events", reason: "it is a symbolic link; it is not followed")
    ) { try EventFiles.events(in: worktree) }
    #expect(throws: EventFileError.self) {
      try EventFiles.write(
        [Event(id: "e9", title: "Nine", date: "TBA", venue: "TBA")], to: worktree)
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["secret.json"],
      "something was written through the link")
  }

  @Test("git cat-file --batch output is split by the sizes in its headers")
  func batch() throws {
    let output = Data("aaa blob 3\nabc\nbbb blob 0\n\nccc blob 2\n\n\n\n".utf8)
    let parts = try EventReader.parseBatch(output, count: 3)
    #expect(parts.map { String(decoding: $0, as: UTF8.self) } == ["abc", "", "\n\n"])
    #expect(throws: EventFileError.self) {
      try EventReader.parseBatch(Data("x missing\n".utf8), count: 1)
    }
  }
}

/// A new empty directory for one test.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("demo-git-backend-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
