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
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: Testing.SourceLocation(
          fileID: location.fileID.description,
          filePath: location.filePath.description,
          line: Int(location.line),
          column: Int(location.column)
        )
      )
    } else {
      XCTFail(message, file: location.filePath, line: location.line)
    }
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

  public init() {}

  public func reportIssue(_ message: String, at location: IssueLocation) {
    recorded.withValue { $0.append(message) }
  }

  /// Every message recorded so far, in order.
  public var messages: [String] { recorded.current }

  /// Forgets the recorded messages.
  public func removeAll() { recorded.setValue([]) }
}
