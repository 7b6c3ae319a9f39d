import ComposableWorkspace
import DemoHTTPProtocol
import WorkspaceHTTP

/// The demo server refused a request: its status and, when it sent one, its problem document.
/// The description is the server's own sentence and the status, never a body or a header.
public struct DemoServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The method and path, e.g. `POST /v1/proposals`.
  public var request: String
  public var status: Int
  public var problem: DemoAPI.Problem?

  public init(request: String, status: Int, problem: DemoAPI.Problem?) {
    self.request = request
    self.status = status
    self.problem = problem
  }

  /// Reads `response` (a problem document, if it is one).
  init(request: String, response: HTTPResponse) {
    self.init(
      request: request, status: response.status,
      problem: try? response.decode(DemoAPI.Problem.self))
  }

  /// The problem's code, if the server sent one.
  public var code: DemoAPI.Problem.Code? { problem?.code }

  /// Whether the server no longer honours the grant (or the session behind it).
  var withdrawsAuthorization: Bool {
    status == 401 || (status == 403 && (code == .grantInvalid || code == .admissionDenied))
  }

  public var description: String {
    guard let problem, !problem.detail.isEmpty else {
      return "the server answered \(request) with \(status)"
    }
    return "\(problem.detail) (\(status))"
  }
}

/// The server never gave a definite answer to a proposal creation (every attempt timed out,
/// lost its connection or met a 5xx). Its record may or may not exist: the form keeps the
/// request, and a retry sends the same idempotency key.
public struct DemoServerUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}

/// The server answered 2xx with a body that is not what the protocol says.
public struct DemoServerAnswerUnreadable: Error, Sendable, Equatable, CustomStringConvertible {
  public var request: String

  public var description: String { "the server's answer to \(request) could not be read" }
}
