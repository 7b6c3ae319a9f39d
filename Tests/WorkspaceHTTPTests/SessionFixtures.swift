import ComposableCore
import Foundation
import LoopbackHTTPServer
import WorkspaceHTTP

/// A server whose `/login` (public) starts a session with rotating `session` and `csrf`
/// cookies, and whose other routes check and rotate them on every answer.
final class SessionServer: Sendable {
  struct Issued: Sendable {
    var session = 0
    var mismatches = 0
  }

  let recording: RecordingServer
  let issued = LockIsolated(Issued())

  init(extraRoutes: (inout HTTPRouter) -> Void = { _ in }) throws {
    let issued = self.issued
    recording = try RecordingServer { router in
      router.post("/login") { request in
        guard request.formFields["password"] == "lovelace-pw" else { return .status(403) }
        return Self.rotated(.json(#"{"name":"ada"}"#), issued: issued, request: nil)
      }
      router.get("/rotate") { request in
        Self.rotated(.text("ok"), issued: issued, request: request)
      }
      router.get("/me") { request in
        Self.rotated(.json(#"{"name":"ada"}"#), issued: issued, request: request)
      }
      router.add(.post, "/echo") { _ in .text("posted") }
      router.add(.put, "/echo") { _ in .text("put") }
      router.add(.patch, "/echo") { _ in .text("patched") }
      router.add(.delete, "/echo") { _ in .text("deleted") }
      router.get("/echo") { _ in .text("got") }
      router.get("/expired") { _ in .status(401) }
      router.post("/logout") { _ in
        var response = HTTPServerResponse.status(204)
        response.setCookie(.deletion(of: "session"))
        return response
      }
      extraRoutes(&router)
    }
  }

  var baseURL: URL { recording.baseURL }

  /// The session cookie value issued `n`-th (secret-looking on purpose: tests grep for it).
  static func sessionValue(_ n: Int) -> String { "sess-secret-\(n)" }

  /// Checks that `request` carries the last issued session cookie, then issues the next one.
  static func rotated(
    _ response: HTTPServerResponse, issued: LockIsolated<Issued>, request: HTTPServerRequest?
  ) -> HTTPServerResponse {
    var response = response
    let next = issued.withValue { issued -> Int in
      if let request, request.cookies["session"] != sessionValue(issued.session) {
        issued.mismatches += 1
      }
      issued.session += 1
      return issued.session
    }
    response.setCookie(SetCookie(name: "session", value: sessionValue(next), httpOnly: true))
    response.setCookie(SetCookie(name: "csrf", value: "csrf-secret-\(next)", sameSite: "Strict"))
    return response
  }

  func stop() async { await recording.stop() }

  /// A session on this server, signed in as ada.
  func signedInSession(_ configuration: HTTPSessionConfiguration = .init()) async throws
    -> HTTPSession
  {
    let session = HTTPSession(baseURL: baseURL, configuration: configuration)
    // A generous timeout of its own: the session's may be short on purpose.
    let login = HTTPRequest(
      method: .post, path: "/login", body: .form(["name": "ada", "password": "lovelace-pw"]),
      timeout: .seconds(30), access: .public)
    let answer = try await session.send(login)
    guard answer.isSuccess else { throw HTTPStatusError(request: "POST /login", response: answer) }
    session.beginSession()
    return session
  }
}
