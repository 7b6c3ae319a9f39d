import ComposableCore
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing
import WorkspaceHTTP

@testable import FossilWorkspace

/// Fossil's forum editor as newer Fossils serve it (a `csrf` field in the reply editor's form,
/// checked with the `Referer`), and the pages and artifacts the client reads.
@Suite("Fossil forum editor")
struct ForumEditorTests {
  @Test func theReplyCarriesTheEditorsCSRFFieldAndTheEditorAsReferer() async throws {
    let server = try Self.newerFossil()
    let session = try await Self.signedIn(server)
    let editor = FossilForumEditor(session: session)
    let form = try await Self.replyEditor(editor)
    #expect(form.csrf == "7f3a9c&1")
    #expect(form.page == "\(server.baseURL)/forumedit?fpid=abcd1234&reply")
    let post = try await editor.submit(form, fields: [.init("content", "Hello")])
    #expect(post == "0123abcd4567")

    // Without the page's token the server shows its editor again: nothing was posted.
    var forged = form
    forged.csrf = nil
    let refusal = await #expect(throws: FossilForumError.self) {
      try await editor.submit(forged, fields: [.init("content", "Hello")])
    }
    if case .notAccepted = refusal {
    } else {
      Issue.record("expected the editor shown again, got \(String(describing: refusal))")
    }
    await server.stop()
  }

  @Test func aLoginRedirectIsNotPermittedForAUserAndSignInRequiredForNobody() async throws {
    let whoami = LockIsolated("ada")
    let server = try Self.newerFossil(whoami: whoami, editorRedirectsToLogin: true)
    let session = try await Self.signedIn(server)
    let editor = FossilForumEditor(session: session)
    await #expect(throws: FossilForumError.notPermittedToPost(user: "ada")) {
      try await editor.open("/forumnew", action: "/forume1")
    }
    whoami.setValue("nobody")
    await #expect(throws: FossilForumError.signInRequired) {
      try await editor.open("/forumnew", action: "/forume1")
    }
    #expect(!session.status.isSignedIn)
    await server.stop()
  }

  /// Fossil's "Post as anonymous?" prompt (a lapsed login, a forum that lets `nobody` post)
  /// is never taken for the editor: nothing is posted.
  @Test func theAnonymousPromptIsNeverPostedThrough() async throws {
    let whoami = LockIsolated("nobody")
    let posts = LockIsolated(0)
    let server = try Self.newerFossil(whoami: whoami, anonymousPrompt: true, posts: posts)
    let session = try await Self.signedIn(server)
    let editor = FossilForumEditor(session: session)
    await #expect(throws: FossilForumError.signInRequired) {
      try await editor.open("/forumnew", action: "/forume1")
    }
    #expect(posts.current == 0)
    await server.stop()
  }

  /// A submission whose answer never comes may have made the post: it is never reported as
  /// refused, or sent again.
  @Test func aSubmissionWithoutAnAnswerIsNeitherRefusedNorResent() async throws {
    let posts = LockIsolated(0)
    let server = try Self.newerFossil(posts: posts, loseSubmissions: true)
    let session = try await Self.signedIn(server)
    let editor = FossilForumEditor(session: session)
    let form = try await Self.replyEditor(editor)
    let error = await #expect(throws: FossilForumError.self) {
      try await editor.submit(form, fields: [.init("content", "Hello")])
    }
    if case .answerLost(let request, _, _)? = error {
      #expect(request == "POST /forume2")
    } else {
      Issue.record("expected a lost answer, got \(String(describing: error))")
    }
    #expect(error?.description.contains("may or may not have been made") == true)
    #expect(posts.current == 1, "sent once, never again")
    await server.stop()
  }

  /// A repository that stays locked refused the post: nothing was written, and it is said so
  /// (a retry is safe), never "no answer".
  @Test func aLockedRepositoryIsNotALostAnswer() async throws {
    let posts = LockIsolated(0)
    let server = try Self.newerFossil(posts: posts, lockSubmissions: true)
    let session = FossilSession(
      baseURL: server.baseURL,
      configuration: FossilSessionConfiguration(
        timeout: .seconds(10), lockedRepositoryAttempts: 2,
        lockedRepositoryBackoff: Backoff(initial: .milliseconds(1), maximum: .milliseconds(1))))
    _ = try await session.signIn(name: "ada", password: "irrelevant")
    let editor = FossilForumEditor(session: session)
    let form = try await Self.replyEditor(editor)
    let error = await #expect(throws: FossilUnavailable.self) {
      try await editor.submit(form, fields: [.init("content", "Hello")])
    }
    #expect(error?.nothingWasWritten == true)
    #expect(posts.current == 2, "sent again once after the first refusal")
    await server.stop()
  }

  @Test func pagesAreReadForTheirFormsTokensAndRedirects() {
    let page = """
      <form action="/repo/forume2" method="POST">
      <input type='hidden' name='csrf' value='a&amp;b'>
      <input type="hidden" name="fpid" value="abc">
      <form method="POST" action="/login">
      """
    #expect(FossilForumEditor.formActions(in: page) == ["/forume2", "/login"])
    #expect(FossilForumEditor.csrfField(in: page) == "a&b")
    #expect(FossilForumEditor.csrfField(in: "<input name=\"fpid\" value=\"x\">") == nil)
    #expect(FossilForumEditor.isAnonymousPrompt(#"<input type="submit" value="Remain Anonymous">"#))
    func redirect(_ location: String) -> HTTPResponse {
      HTTPResponse(status: 302, headers: ["Location": location])
    }
    #expect(
      FossilForumEditor.postHash(inRedirect: redirect("http://h/r/forumpost/FA41854DE2"))
        == "fa41854de2")
    #expect(FossilForumEditor.postHash(inRedirect: redirect("http://h/forumpost/x")) == nil)
    #expect(FossilForumEditor.isLoginRedirect(redirect("http://h/login?g=forumnew")))
    #expect(!FossilForumEditor.isLoginRedirect(redirect("http://h/forumpost/fa41854de2")))
  }

  @Test func aForumArtifactIsReadByItsCardsWithTheTextExact() throws {
    let text = "Line one\r\nZ not a card\n✓"
    let artifact = Data(
      "D 2026-12-04T06:59:36.898\nH Review\\sof\\s“x”\nN text/x-markdown\nU ada\nW \(text.utf8.count)\n\(text)\nZ 0123\n"
        .utf8)
    let post = try FossilForumArtifact.parse(artifact, source: "test")
    #expect(
      post
        == FossilForumArtifact(
          title: "Review of “x”", mimetype: "text/x-markdown", user: "ada", text: text))
    #expect(throws: FossilError.self) {
      try FossilForumArtifact.parse(Data("U ada\nW 99\nshort\n".utf8), source: "test")
    }
    #expect(throws: FossilError.self) {
      try FossilForumArtifact.parse(Data("D 2026-12-04\nZ 0123\n".utf8), source: "test")
    }
  }

  // MARK: A newer Fossil, faked

  static let cookie = "fossil-0123456789abcdef"

  /// Fossil's login and forum editor as a newer Fossil serves them: the reply form carries a
  /// `csrf` field the submission must echo, with the editor page as `Referer`.
  static func newerFossil(
    whoami: LockIsolated<String> = LockIsolated("ada"), editorRedirectsToLogin: Bool = false,
    anonymousPrompt: Bool = false, posts: LockIsolated<Int> = LockIsolated(0),
    loseSubmissions: Bool = false, lockSubmissions: Bool = false
  ) throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { request in
      let base = "http://\(request.headers["Host"] ?? "")"
      if request.method == .post, request.path.hasPrefix("/forume") {
        posts.withValue { $0 += 1 }
        if loseSubmissions { return .closeWithoutAnswer }
        if lockSubmissions {
          // Fossil's "Database error" page for a repository another writer holds.
          return .text("Database error: database is locked: {BEGIN IMMEDIATE}", status: 400)
        }
      }
      switch (request.method, request.path) {
      case (.post, "/json"):
        var response = HTTPServerResponse.json(
          #"{"payload":{"authToken":"t","name":"ada","capabilities":"io","loginCookieName":"\#(cookie)"}}"#
        )
        response.headers.add("Set-Cookie", "\(cookie)=t%2Fada; Path=/; max-age=600; Version=1")
        return response
      case (.get, "/json/whoami"):
        return .json(#"{"payload":{"name":"\#(whoami.current)","capabilities":""}}"#)
      case (.get, "/forumnew") where anonymousPrompt:
        // Fossil 2.21's prompt: its own form posts to the editor's action.
        return .text(
          """
          <p>You are not logged in.
          <form action="forume1" method="POST">
          <input type="submit" value="Remain Anonymous">
          </form>
          """)
      case (.get, _) where editorRedirectsToLogin:
        var response = HTTPServerResponse.status(302)
        response.headers.add("Location", "\(base)/login?g=forumnew")
        return response
      case (.get, "/forumedit"):
        return .text(
          """
          <form action="/forume2" method="POST">
          <input type="hidden" name="csrf" value="7f3a9c&amp;1">
          <input type="hidden" name="fpid" value="abcd1234">
          <textarea aria-label="Content:" name="content" class="wikiedit"></textarea>
          </form>
          """)
      case (.post, "/forume2")
      where request.formFields["csrf"] == "7f3a9c&1"
        && request.headers["Referer"] == "\(base)/forumedit?fpid=abcd1234&reply":
        var response = HTTPServerResponse.status(302)
        response.headers.add("Location", "\(base)/forumpost/0123abcd4567")
        return response
      default:
        return .text("<form action=\"/forume2\" method=\"POST\"></form>")
      }
    }
  }

  /// The fake's reply editor for post `abcd1234`, opened.
  static func replyEditor(_ editor: FossilForumEditor) async throws -> FossilForumEditor.Form {
    try await editor.open(
      "/forumedit",
      query: [URLQueryItem(name: "fpid", value: "abcd1234"), .init(name: "reply", value: nil)],
      action: "/forume2")
  }

  static func signedIn(_ server: LoopbackHTTPServer) async throws -> FossilSession {
    let session = FossilSession(
      baseURL: server.baseURL, configuration: FossilSessionConfiguration(timeout: .seconds(10)))
    _ = try await session.signIn(name: "ada", password: "irrelevant")
    return session
  }
}
