import Foundation
import WorkspaceHTTP

/// Fossil's forum editor, driven the way a browser drives it, as the session's signed-in
/// person: open the editor page (`/forumnew` for a new thread, `/forumedit?fpid=H&reply` for a
/// reply), take the form's anti-forgery `csrf` field when the page has one (newer Fossils put
/// one in the form; 2.21 checks the `Referer` alone), and post the form to its action with the
/// editor page as `Referer`. Fossil answers a post it made with a redirect to `/forumpost/H`.
///
/// A user the forum does not let post is sent to the login page instead of the editor; the
/// session then asks who is signed in, so "not permitted to post here" is told apart from a
/// login the server no longer honours.
struct FossilForumEditor: Sendable {
  let session: FossilSession

  /// An editor page's form: where it posts, and the token it carries.
  struct Form: Hashable, Sendable {
    /// The form's action (`/forume1`, `/forume2`).
    var action: String
    /// The form's `csrf` field, when the page has one.
    var csrf: String?
    /// The editor page's URL: the `Referer` of the submission.
    var page: String
  }

  /// Opens the editor page at `path` and reads its form, which must post to `action`.
  func open(_ path: String, query: [URLQueryItem] = [], action: String) async throws -> Form {
    let request = HTTPRequest.get(path, query: query)
    let response = try await send(request)
    switch response.status {
    case 200 where Self.isAnonymousPrompt(response.text):
      // The login is no longer honoured, and the forum lets anyone post: never post as
      // `anonymous` on the person's behalf.
      throw try await permissionRefusal()
    case 200:
      guard Self.formActions(in: response.text).contains(action),
        Self.hasContentField(response.text)
      else {
        throw FossilError.unexpectedAnswer(
          request: request.summary, reason: "the page has no editor posting to \(action)")
      }
      return Form(
        action: action, csrf: Self.csrfField(in: response.text), page: url(path, query: query))
    case _ where Self.isLoginRedirect(response):
      throw try await permissionRefusal()
    default:
      throw FossilAnswer.unexpectedStatus(response, of: request.summary)
    }
  }

  /// Posts `fields` with `form` and answers the new post's hash, as the server abbreviated it.
  func submit(_ form: Form, fields: [HTTPBody.FormField]) async throws -> String {
    var fields = fields
    if let csrf = form.csrf { fields.append(HTTPBody.FormField("csrf", csrf)) }
    var request = HTTPRequest.post(form.action, body: .form(fields))
    request.headers["Referer"] = form.page
    let response: HTTPResponse
    do {
      response = try await send(request)
    } catch let lost as FossilUnavailable where !lost.nothingWasWritten {
      // Sent, and no answer: the server may have made the post or not.
      throw FossilForumError.answerLost(
        request: request.summary, reason: lost.message, mayAwaitModeration: false)
    }
    switch response.status {
    case _ where Self.isLoginRedirect(response):
      throw try await permissionRefusal()
    case 301, 302, 303, 307:
      guard let post = Self.postHash(inRedirect: response) else {
        throw FossilError.unexpectedAnswer(
          request: request.summary, reason: "it redirected elsewhere than to the new post")
      }
      return post
    case 200:
      throw FossilForumError.notAccepted(
        request: request.summary,
        reason: "the server showed its editor again (its CSRF defence refused the form, or "
          + "it did not take the post)")
    case 408, 500..<600:
      // A gateway's timeout or error may hide a post the server made.
      throw FossilForumError.answerLost(
        request: request.summary, reason: "HTTP status \(response.status)",
        mayAwaitModeration: false)
    default:
      throw FossilAnswer.unexpectedStatus(response, of: request.summary)
    }
  }

  private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    do {
      return try await session.send(request)
    } catch HTTPSessionError.signedOut {
      throw FossilForumError.signInRequired
    }
  }

  /// The editor sent the user to the login page: Fossil's answer to a user without the forum
  /// capabilities — or to a login it no longer honours, which a whoami tells apart (and which
  /// then ends the session).
  private func permissionRefusal() async throws -> FossilForumError {
    guard let user = try await session.restore() else { return .signInRequired }
    return .notPermittedToPost(user: user.name)
  }

  private func url(_ path: String, query: [URLQueryItem]) -> String {
    var components = URLComponents(
      url: session.baseURL.appendingPathComponent(String(path.dropFirst())),
      resolvingAgainstBaseURL: false)
    components?.queryItems = query.isEmpty ? nil : query
    return components?.string ?? session.baseURL.absoluteString
  }

  // MARK: Reading Fossil's pages

  /// Whether `response` redirects to the login page.
  static func isLoginRedirect(_ response: HTTPResponse) -> Bool {
    guard [301, 302, 303, 307].contains(response.status),
      let location = response.headers["Location"]
    else { return false }
    return URLComponents(string: location)?.path.hasSuffix("/login") == true
  }

  /// Whether `page` is Fossil's "Post as anonymous?" prompt, shown to a visitor no one signed
  /// in when the forum lets `nobody` post.
  static func isAnonymousPrompt(_ page: String) -> Bool {
    page.contains("value=\"Remain Anonymous\"")
  }

  /// The hash in a redirect to `/forumpost/<hash>`.
  static func postHash(inRedirect response: HTTPResponse) -> String? {
    guard let location = response.headers["Location"],
      let path = URLComponents(string: location)?.path,
      let range = path.range(of: "/forumpost/", options: .backwards)
    else { return nil }
    let hash = path[range.upperBound...]
    guard (4...64).contains(hash.count), hash.allSatisfy(\.isHexDigit) else { return nil }
    return hash.lowercased()
  }

  /// The actions of the page's forms, without the repository's path before them.
  static func formActions(in page: String) -> [String] {
    tags(named: "form", in: page).compactMap { attribute("action", of: $0) }.map { action in
      let path = URLComponents(string: action)?.path ?? action
      guard let slash = path.lastIndex(of: "/") else { return "/" + path }
      return String(path[slash...])
    }
  }

  /// Whether the page has the editor's text area (`<textarea name="content">`).
  static func hasContentField(_ page: String) -> Bool {
    tags(named: "textarea", in: page).contains { attribute("name", of: $0) == "content" }
  }

  /// The value of the page's `<input name="csrf">`, if it has one.
  static func csrfField(in page: String) -> String? {
    tags(named: "input", in: page).first { attribute("name", of: $0) == "csrf" }
      .flatMap { attribute("value", of: $0) }
  }

  /// The text of every `<name …>` tag of `page`, from the name to the closing `>`.
  private static func tags(named name: String, in page: String) -> [Substring] {
    var found: [Substring] = []
    var rest = page[...]
    while let open = rest.range(of: "<" + name, options: .caseInsensitive) {
      let after = rest[open.upperBound...]
      guard let close = after.firstIndex(of: ">") else { break }
      if after.first?.isWhitespace == true { found.append(after[..<close]) }
      rest = after[close...]
    }
    return found
  }

  /// The value of attribute `name` in a tag's text (quoted with `"` or `'`), entities for
  /// `&`, `<`, `>` and quotes decoded.
  private static func attribute(_ name: String, of tag: Substring) -> String? {
    var rest = tag
    while let found = rest.range(of: name + "=", options: .caseInsensitive) {
      let before = rest[..<found.lowerBound].last
      rest = rest[found.upperBound...]
      guard before == nil || before?.isWhitespace == true,
        let quote = rest.first, quote == "\"" || quote == "'"
      else { continue }
      let value = rest.dropFirst().prefix { $0 != quote }
      return String(value)
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&amp;", with: "&")
    }
    return nil
  }
}
