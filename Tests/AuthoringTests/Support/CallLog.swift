import ComposableCore

/// The client calls a story made, in order, so tests can assert ordering and absence.
final class CallLog: Sendable {
  private let entries = LockIsolated<[String]>([])

  func record(_ entry: String) { entries.withValue { $0.append(entry) } }

  var all: [String] { entries.current }
}
