import ComposableCore

/// Collects the issues (programmer and protocol errors) the feature reports while a command
/// runs, so the command can say so in one line instead of a raw diagnostic.
final class IssueCollector: IssueReporter {
  private let issues = LockIsolated<[String]>([])

  func reportIssue(_ message: String, at location: IssueLocation) {
    issues.withValue { $0.append(message) }
  }

  /// The issues so far; clears them.
  func drain() -> [String] {
    issues.withValue { issues in
      defer { issues = [] }
      return issues
    }
  }
}
