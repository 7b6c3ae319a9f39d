/// An endpoint that reports an issue naming itself when called, for a client's `testValue`.
///
/// ```swift
/// static let testValue = WorkspaceClient(
///   prepareSource: unimplemented("WorkspaceClient.prepareSource"),
///   …
/// )
/// ```
///
/// The endpoint then throws ``UnimplementedEndpoint`` so the calling effect stops.
public func unimplemented<each Argument, Result>(
  _ endpoint: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  { (_: repeat each Argument) in
    reportIssue(
      "Unimplemented: \(endpoint) was called, but this test did not override it.",
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    throw UnimplementedEndpoint(endpoint: endpoint)
  }
}

/// Thrown by an ``unimplemented(_:fileID:filePath:line:column:)`` endpoint after it reported.
public struct UnimplementedEndpoint: Error, Equatable, CustomStringConvertible {
  public let endpoint: String

  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  public var description: String { "unimplemented endpoint \(endpoint)" }
}

/// A non-throwing endpoint that reports an issue naming itself when called, then answers
/// `placeholder`.
///
/// ```swift
/// static let testValue = AuthoringClient(
///   restorePersistedGrant: unimplemented("AuthoringClient.restorePersistedGrant", placeholder: nil),
///   …
/// )
/// ```
public func unimplemented<each Argument, Result: Sendable>(
  _ endpoint: String,
  placeholder: Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async -> Result {
  { (_: repeat each Argument) in
    reportIssue(
      "Unimplemented: \(endpoint) was called, but this test did not override it.",
      fileID: fileID, filePath: filePath, line: line, column: column
    )
    return placeholder
  }
}
