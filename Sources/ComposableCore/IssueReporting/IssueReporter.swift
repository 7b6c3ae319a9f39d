import Foundation

/// Where a reported issue came from in source.
public struct IssueLocation: Sendable, Equatable, CustomStringConvertible {
  public let fileID: StaticString
  public let filePath: StaticString
  public let line: UInt
  public let column: UInt

  public init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.fileID.description == rhs.fileID.description
      && lhs.filePath.description == rhs.filePath.description
      && lhs.line == rhs.line && lhs.column == rhs.column
  }

  public var description: String { "\(fileID):\(line)" }
}

/// Receives issues: programmer errors and protocol violations that must not become UI state.
///
/// The core ships ``StandardErrorIssueReporter``; `ComposableTesting` ships a reporter that fails
/// the running XCTest or Swift Testing test. Install reporters for a scope with
/// `withIssueReporters(_:operation:)` or process-wide with ``IssueReporters/default``.
public protocol IssueReporter: Sendable {
  /// Records one issue.
  func reportIssue(_ message: String, at location: IssueLocation)

  /// Records a known issue: one that is expected and must be shown, but is no failure (a
  /// `TestStore` with `exhaustivity = .off(showSkippedAssertions: true)` reports the assertions
  /// it skipped this way). By default it is written to standard error, marked as known.
  func reportKnownIssue(_ message: String, at location: IssueLocation)
}

extension IssueReporter {
  public func reportKnownIssue(_ message: String, at location: IssueLocation) {
    StandardErrorIssueReporter.write("known issue", message, at: location)
  }
}

/// Writes each issue as one line to standard error.
public struct StandardErrorIssueReporter: IssueReporter {
  public init() {}

  public func reportIssue(_ message: String, at location: IssueLocation) {
    Self.write("issue", message, at: location)
  }

  static func write(_ kind: String, _ message: String, at location: IssueLocation) {
    let line = "\(location.fileID):\(location.line): \(kind): \(message)\n"
    FileHandle.standardError.write(Data(line.utf8))
  }
}

/// The set of reporters in force.
public enum IssueReporters {
  private static let fallback = LockIsolated<[any IssueReporter]>([StandardErrorIssueReporter()])

  /// Reporters installed for the current task by `withIssueReporters(_:operation:)`;
  /// `nil` when none are.
  @TaskLocal public static var scoped: [any IssueReporter]?

  /// The process-wide reporters used when no scoped reporters are installed. Defaults to
  /// ``StandardErrorIssueReporter``.
  public static var `default`: [any IssueReporter] {
    get { fallback.withValue { $0 } }
    set { fallback.withValue { $0 = newValue } }
  }

  /// The reporters that ``reportIssue(_:fileID:filePath:line:column:)`` uses right now.
  public static var current: [any IssueReporter] {
    scoped ?? `default`
  }
}

/// Runs `operation` with `reporters` receiving every issue reported in it (and in effects the
/// store starts from it).
@discardableResult
public func withIssueReporters<R>(
  _ reporters: [any IssueReporter],
  operation: () throws -> R
) rethrows -> R {
  try IssueReporters.$scoped.withValue(reporters, operation: operation)
}

/// Runs `operation` with `reporters` receiving every issue reported in it.
@discardableResult
public func withIssueReporters<R>(
  _ reporters: [any IssueReporter],
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  try await IssueReporters.$scoped.withValue(reporters, operation: operation, isolation: isolation)
}
