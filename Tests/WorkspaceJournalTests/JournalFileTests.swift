import Foundation
import Testing
import WorkspaceJournal

@Suite("The journal file")
struct JournalFileTests {
  @Test("Written whole, private (0600), with no temporary file left beside it")
  func writtenWholeAndPrivate() throws {
    let folder = try Folder()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("publications.journal")
    let storage = JournalFile(url: file)
    let old = umask(0o022)
    defer { umask(old) }

    try storage.write(Data("first".utf8))
    try storage.write(Data("second".utf8))

    #expect(try storage.read() == Data("second".utf8))
    #expect(folder.names == ["publications.journal"])
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
  }

  @Test("A temporary file a killed process left is swept; a live process's is not")
  func staleTemporariesAreSwept() throws {
    let folder = try Folder()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("publications.journal")
    // A pid that is not running: past the kernel's limit.
    let dead = folder.url.appendingPathComponent(".publications.journal.4194305.0A1B.tmp")
    let live = folder.url.appendingPathComponent(".publications.journal.\(getpid()).0C2D.tmp")
    let unrelated = folder.url.appendingPathComponent(".other.4194305.0A1B.tmp")
    for url in [dead, live, unrelated] { try Data("partial".utf8).write(to: url) }

    _ = JournalFile(url: file)

    #expect(
      folder.names.sorted() == [live.lastPathComponent, unrelated.lastPathComponent].sorted())
  }

  @Test("A symbolic link, a folder or garbage is refused and left as it is")
  func badFilesAreRefusedAndKept() throws {
    let folder = try Folder()
    defer { folder.remove() }
    let target = folder.url.appendingPathComponent("target")
    try Data("{}".utf8).write(to: target)
    let link = folder.url.appendingPathComponent("link.journal")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    #expect(throws: JournalUnreadable.self) {
      try PublicationJournal(storage: JournalFile(url: link))
    }
    #expect(throws: DurableFileError.self) { try JournalFile(url: link).write(Data()) }

    let garbage = folder.url.appendingPathComponent("garbage.journal")
    try Data("not a journal".utf8).write(to: garbage)
    let refusal = #expect(throws: JournalUnreadable.self) {
      try PublicationJournal(storage: JournalFile(url: garbage))
    }
    #expect(refusal?.description.contains("not a publication journal") == true)
    #expect(try Data(contentsOf: garbage) == Data("not a journal".utf8))
    #expect(try Data(contentsOf: target) == Data("{}".utf8))

    #expect(throws: JournalUnreadable.self) {
      try PublicationJournal(storage: JournalFile(url: folder.url))
    }
  }

  @Test("A missing file is an empty journal; the first write makes it")
  func aMissingFileIsEmpty() throws {
    let folder = try Folder()
    defer { folder.remove() }
    let file = folder.url.appendingPathComponent("new.journal")
    #expect(try PublicationJournal(storage: JournalFile(url: file)).entries.isEmpty)
    #expect(folder.names.isEmpty)
  }
}
