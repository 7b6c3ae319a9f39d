import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

/// The `Cookie` header a session builds stays within its configured size: a request whose
/// cookies would pass it is not sent, and the error says why without a cookie's value.
@Suite("Cookie header limit")
struct CookieHeaderLimitTests {
  @Test func aRequestWhoseCookiesWouldPassTheLimitIsNotSentAndTheErrorSaysWhy() async throws {
    let server = try SessionServer { router in
      router.get("/fat") { _ in
        var response = HTTPServerResponse.text("fat")
        for index in 0..<3 {
          response.setCookie(
            SetCookie(name: "fat\(index)", value: "secret" + String(repeating: "v", count: 3000)))
        }
        return response
      }
    }
    defer { Task { await server.stop() } }
    let session = try await server.signedInSession()
    #expect(try await session.send(.get("/fat")).status == 200)
    #expect(session.cookies.filter { $0.name.hasPrefix("fat") }.count == 3)
    let sentBefore = server.recording.requests.count
    do {
      _ = try await session.send(.get("/me"))
      Issue.record("a 9 KB Cookie header was sent")
    } catch let error as HTTPSessionError {
      guard case .cookieHeaderTooLarge(let request, let bytes, let limit) = error else {
        Issue.record("another error: \(error)")
        return
      }
      #expect(request == "GET /me")
      #expect(bytes > 9000)
      #expect(limit == 8 * 1024)
      #expect(!error.description.contains("secret"), "a cookie value reached the message")
      #expect(!error.isTransient)
    }
    #expect(server.recording.requests.count == sentBefore, "the request reached the server")
    #expect(session.status == .signedIn, "a local refusal does not end the session")

    let roomy = try await server.signedInSession(.init(maximumCookieHeaderBytes: 16 * 1024))
    #expect(try await roomy.send(.get("/fat")).status == 200)
    #expect(try await roomy.send(.get("/me")).status == 200, "within a larger limit it is sent")
  }
}
