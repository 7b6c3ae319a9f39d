import ComposableCore
import Testing
import XCTest

/// Records each issue as a failure of the running test: a Swift Testing issue inside a
/// `@Test`, an XCTest failure otherwise.
///
/// `TestStore` installs it for everything it reduces and runs unless reporters are already
/// scoped with `withIssueReporters`. Install it process-wide to make every `reportIssue` in a
/// test target fail the test:
///
/// ```swift
/// IssueReporters.default = [TestIssueReporter()]
/// ```
public struct TestIssueReporter: IssueReporter {
  public init() {}

  public func reportIssue(_ message: String, at location: IssueLocation) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: Self.sourceLocation(location))
    } else {
      XCTFail(message, file: location.filePath, line: location.line)
    }
  }

  /// Records a known issue, which shows in the test's results without failing it: inside
  /// `withKnownIssue` under Swift Testing, as an expected failure (`XCTExpectFailure`) under
  /// XCTest on Apple platforms. XCTest on Linux has no expected failures: there the issue is
  /// written to standard error, marked as known.
  public func reportKnownIssue(_ message: String, at location: IssueLocation) {
    if Test.current != nil {
      withKnownIssue(sourceLocation: Self.sourceLocation(location)) {
        Issue.record(Comment(rawValue: message), sourceLocation: Self.sourceLocation(location))
      }
    } else {
      #if canImport(ObjectiveC)
        XCTExpectFailure(
          "An assertion the test store skipped", strict: false,
          failingBlock: { XCTFail(message, file: location.filePath, line: location.line) })
      #else
        StandardErrorIssueReporter().reportKnownIssue(message, at: location)
      #endif
    }
  }

  private static func sourceLocation(_ location: IssueLocation) -> Testing.SourceLocation {
    Testing.SourceLocation(
      fileID: location.fileID.description,
      filePath: location.filePath.description,
      line: Int(location.line),
      column: Int(location.column)
    )
  }
}

/// Collects reported issues so a test can assert them: the way to test that bad input is
/// reported, and that a `TestStore` fails when it should.
///
/// ```swift
/// let recorder = IssueRecorder()
/// await withIssueReporters([recorder]) {
///   await store.send(.publishProposal)
/// }
/// #expect(recorder.messages == ["publishProposal sent while the workspace is not ready"])
/// ```
public final class IssueRecorder: IssueReporter {
  private let recorded = LockIsolated<[String]>([])
  private let recordedKnownIssues = LockIsolated<[String]>([])

  public init() {}

  public func reportIssue(_ message: String, at location: IssueLocation) {
    recorded.withValue { $0.append(message) }
  }

  public func reportKnownIssue(_ message: String, at location: IssueLocation) {
    recordedKnownIssues.withValue { $0.append(message) }
  }

  /// Every issue recorded so far, in order.
  public var messages: [String] { recorded.current }

  /// Every known issue recorded so far, in order (for example the assertions a test store
  /// skipped with `exhaustivity = .off(showSkippedAssertions: true)`).
  public var knownIssues: [String] { recordedKnownIssues.current }

  /// Forgets the recorded issues and known issues.
  public func removeAll() {
    recorded.setValue([])
    recordedKnownIssues.setValue([])
  }
}
