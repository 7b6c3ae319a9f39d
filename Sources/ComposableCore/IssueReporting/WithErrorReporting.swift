/// Runs `body`; a thrown error is reported as an issue instead of propagating.
///
/// Use it where an error can only mean a programmer or protocol error, so it must be seen but
/// must not become state:
///
/// ```swift
/// let session = withErrorReporting("integrator returned another branch") {
///   try validate(returned, requested: branch)
/// }
/// ```
///
/// - Returns: `body`'s result, or `nil` when it threw.
@discardableResult
public func withErrorReporting<R>(
  _ message: @autoclosure () -> String? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  catching body: () throws -> R
) -> R? {
  do {
    return try body()
  } catch {
    reportIssue(error, message(), fileID: fileID, filePath: filePath, line: line, column: column)
    return nil
  }
}

/// Runs the async `body`; a thrown error (other than cancellation) is reported as an issue.
///
/// - Returns: `body`'s result, or `nil` when it threw.
@discardableResult
public func withErrorReporting<R>(
  _ message: @autoclosure () -> String? = nil,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  catching body: () async throws -> sending R
) async -> R? {
  do {
    return try await body()
  } catch is CancellationError {
    return nil
  } catch {
    reportIssue(error, message(), fileID: fileID, filePath: filePath, line: line, column: column)
    return nil
  }
}
