import ComposableWorkspace

/// A definite answer of a Fossil server that is not what was asked for. Messages name the
/// request (method and path) and Fossil's own result code, never a password, token, cookie or
/// body.
public enum FossilError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The server refused the name and password (`FOSSIL-2100`…`2104`), with its reason.
  case signInRefused(reason: String)
  /// The signed-in user (or `nobody`) lacks the capability the request needs
  /// (`FOSSIL-2000`…`2099`, or a 403 "permissions required").
  case notAuthorized(request: String, code: String)
  /// The server refused a write as a possible cross-site request forgery: Fossil 2.21 wants a
  /// same-origin `Referer` on every write (without it, JSON writes answer `FOSSIL-1103` with an
  /// SQLite authorizer refusal).
  case csrfRefused(request: String)
  /// The named artifact, branch or check-in does not exist (`FOSSIL-3006`).
  case notFound(request: String)
  /// What the request creates exists already (`FOSSIL-3005`).
  case alreadyExists(request: String)
  /// Another refusal, with Fossil's result code (or HTTP status) and its text.
  case refused(request: String, code: String, reason: String)
  /// The answer is not one Fossil gives: not its JSON, no payload, a missing field. The server
  /// may not be a Fossil server, or something between breaks its answers.
  case unexpectedAnswer(request: String, reason: String)

  public var description: String {
    switch self {
    case .signInRefused(let reason):
      "The Fossil server refused the sign-in: \(reason)."
    case .notAuthorized(let request, let code):
      "\(request) was refused (\(code)): the signed-in user lacks the capability it needs."
    case .csrfRefused(let request):
      """
      \(request) was refused by Fossil's CSRF defence: the request did not carry a same-origin \
      Referer (something between this client and the server may strip it).
      """
    case .notFound(let request):
      "\(request): the Fossil server has no such artifact, branch or check-in."
    case .alreadyExists(let request):
      "\(request): it exists already."
    case .refused(let request, let code, let reason):
      "\(request) was refused (\(code)): \(reason)"
    case .unexpectedAnswer(let request, let reason):
      "\(request) got an answer that is not Fossil's: \(reason)."
    }
  }
}

/// The Fossil server could not be reached, or answered that it is busy (a timeout, a broken
/// connection, a 5xx that is not Fossil's own refusal): trying again may work. `Workspace`
/// retries a publication on it, with the same idempotency key.
public struct FossilUnavailable: WorkspaceTransientError, Hashable, Sendable,
  CustomStringConvertible
{
  /// The request (method and path) and what happened.
  public var message: String
  /// Whether the server said nothing was written (it refused for a locked repository): a
  /// write may then be sent again without a second thought. `false` when the answer was lost,
  /// and a write may or may not have happened.
  public var nothingWasWritten: Bool

  public init(_ message: String, nothingWasWritten: Bool = false) {
    self.message = message
    self.nothingWasWritten = nothingWasWritten
  }

  public var description: String { message }
}
