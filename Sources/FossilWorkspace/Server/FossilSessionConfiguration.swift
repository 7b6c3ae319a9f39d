import WorkspaceHTTP

/// How a ``FossilSession`` talks to its server.
///
/// ```swift
/// let session = FossilSession(
///   baseURL: URL(string: "https://fossil.example.com/catalogue")!,
///   configuration: FossilSessionConfiguration(
///     timeout: .seconds(20), logger: HTTPLogger { print($0) }))
/// ```
public struct FossilSessionConfiguration: Sendable {
  /// The longest the server may stay silent during one request.
  public var timeout: Duration
  /// Where redacted request lines go (never a password, token, cookie value or body).
  public var logger: HTTPLogger?
  /// The CSRF proofs every write carries: Fossil 2.21's same-origin `Referer` (and its `csrf`
  /// form field on HTML forms). Only a test that proves what Fossil does without them changes
  /// it.
  public var csrf: CSRFPolicy
  /// How many times in all a request is sent while Fossil refuses it because another writer
  /// holds its repository locked ("database is locked": nothing was written, see
  /// `FossilSession`), before ``FossilUnavailable`` is thrown (at least 1).
  public var lockedRepositoryAttempts: Int
  /// The waits between those attempts, on the `\.clock` dependency.
  public var lockedRepositoryBackoff: Backoff

  public init(
    timeout: Duration = .seconds(30), logger: HTTPLogger? = nil, csrf: CSRFPolicy = .fossil,
    lockedRepositoryAttempts: Int = 6,
    lockedRepositoryBackoff: Backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2))
  ) {
    self.timeout = timeout
    self.logger = logger
    self.csrf = csrf
    self.lockedRepositoryAttempts = max(1, lockedRepositoryAttempts)
    self.lockedRepositoryBackoff = lockedRepositoryBackoff
  }
}
