/// Reports a programmer error or protocol violation to the reporters in force.
///
/// Issues never trap: the default reporter prints to standard error, and in tests the
/// `ComposableTesting` reporter fails the running test.
///
/// ```swift
/// guard case .ready = state.availability else {
///   reportIssue("publishProposal sent while the workspace is not ready")
///   return .none
/// }
/// ```
public func reportIssue(
  _ message: @autoclosure () -> String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let reporters = IssueReporters.current
  guard !reporters.isEmpty else { return }
  let text = message()
  for reporter in reporters {
    reporter.reportIssue(text, at: location)
  }
}

/// Reports a thrown error as an issue.
public func reportIssue(
  _ error: any Error,
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let prefix = message().map { "\($0): " } ?? ""
  reportIssue(
    "\(prefix)caught error: \(String(reflecting: error))",
    fileID: fileID, filePath: filePath, line: line, column: column
  )
}
