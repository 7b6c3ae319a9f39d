import WorkspaceHTTP

/// How the HTTP backend talks to the demo server.
///
/// ```swift
/// var configuration = HTTPBackendConfiguration()
/// configuration.timeout = .seconds(2)        // a test's server that may never answer
/// configuration.logger = HTTPLogger { print($0) }   // redacted lines
/// let backend = HTTPBackend(server: url, configuration: configuration)
/// ```
public struct HTTPBackendConfiguration: Sendable {
  /// The longest the server may stay silent during one request (whole seconds on Linux).
  public var timeout: Duration
  /// Attempts of one proposal creation (the first included), each with the same
  /// idempotency key and body, before the form is told there was no definite answer.
  public var publishAttempts: Int
  /// The waits between those attempts (on the `\.clock` dependency).
  public var publishBackoff: Backoff
  /// The longest a sign-in may take from the login form to the app's loopback listener.
  public var signInTimeout: Duration
  /// The waits before the live channel reconnects (the server's `retry:` replaces the first).
  public var liveReconnect: Backoff
  /// The longest the live channel may stay silent (the server sends a heartbeat well within).
  public var liveIdleTimeout: Duration
  /// Where the session's redacted request lines go; `nil` logs nothing.
  public var logger: HTTPLogger?

  public init(
    timeout: Duration = .seconds(10), publishAttempts: Int = 3,
    publishBackoff: Backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(2)),
    signInTimeout: Duration = .seconds(30),
    liveReconnect: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(10)),
    liveIdleTimeout: Duration = .seconds(60), logger: HTTPLogger? = nil
  ) {
    self.timeout = timeout
    self.publishAttempts = publishAttempts
    self.publishBackoff = publishBackoff
    self.signInTimeout = signInTimeout
    self.liveReconnect = liveReconnect
    self.liveIdleTimeout = liveIdleTimeout
    self.logger = logger
  }
}
