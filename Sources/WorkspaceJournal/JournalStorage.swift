import ComposableCore
import Foundation

/// Where a ``PublicationJournal`` keeps its entries: the application's own storage, or
/// ``JournalFile`` (a file written atomically and synced).
///
/// The journal calls these on a queue of its own, one at a time, never on a thread Swift
/// concurrency needs: they may block (a disk's `fsync`, a database commit).
///
/// ```swift
/// struct KeychainJournal: JournalStorage {
///   func read() throws -> Data? { try keychain.data(for: "journal") }
///   func write(_ data: Data) throws { try keychain.set(data, for: "journal") }
/// }
/// ```
public protocol JournalStorage: Sendable {
  /// What ``write(_:)`` last wrote, or `nil` when nothing was written yet.
  func read() throws -> Data?
  /// Replaces what is kept with `data`, durably: once this returns, a crash keeps `data`; when
  /// it throws, what was kept before is kept.
  func write(_ data: Data) throws
}

/// A ``JournalStorage`` in memory: the journal works, but nothing outlives the process. For
/// tests, and for an application that runs without a place to keep it.
public final class InMemoryJournalStorage: JournalStorage {
  private let data = LockIsolated<Data?>(nil)

  public init() {}

  public func read() throws -> Data? { data.current }

  public func write(_ data: Data) throws { self.data.setValue(data) }
}
