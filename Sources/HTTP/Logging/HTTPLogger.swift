/// Receives one line per request, response, failure and session event, already redacted:
/// cookie values, tokens, passwords, `Authorization` and every other header outside a short
/// list of harmless ones, query values and bodies never reach it.
///
/// ```swift
/// let logger = HTTPLogger { line in print(line) }
/// let session = HTTPSession(baseURL: url, configuration: .init(logger: logger))
/// // → POST /v1/proposals · Cookie: session=<redacted> · X-CSRF-Token: <redacted> · 42 bytes
/// ```
public struct HTTPLogger: Sendable {
  public let log: @Sendable (String) -> Void

  public init(_ log: @escaping @Sendable (String) -> Void) {
    self.log = log
  }
}
