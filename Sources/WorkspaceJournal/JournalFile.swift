import Foundation

/// A ``JournalStorage`` in one file of its own, replaced atomically and synced on every write
/// (``DurableFile``), readable and writable by its owner only (mode 0600).
///
/// Opening it removes temporary files a killed process left beside it. One process at a time
/// should use a journal file (the application's own lock, such as the one it holds on its
/// state, covers it).
///
/// ```swift
/// let journal = try PublicationJournal(storage: JournalFile(url: support.appendingPathComponent("publications.journal")))
/// ```
public struct JournalFile: JournalStorage {
  /// The file.
  public let url: URL

  public init(url: URL) {
    self.url = url
    DurableFile.sweepTemporaries(of: url)
  }

  public func read() throws -> Data? {
    try DurableFile.contents(of: url)
  }

  public func write(_ data: Data) throws {
    try DurableFile.replace(contentsOf: url, with: data, permissions: 0o600)
  }
}
