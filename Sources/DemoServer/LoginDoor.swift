import ComposableCore
import DemoHTTPProtocol
import Foundation
import HTTPMessages
import LoopbackHTTPServer
import WorkspaceDemoFeature

/// The sign-in door's pending logins: an authorization request (RFC 6749 §4.1.1 with an S256
/// challenge, RFC 7636) shows a login form naming a fresh pending login; the form's answer
/// signs the person in and sends the browser back to the app's loopback redirect with a code
/// (through ``PKCEAuthorizations``), redeemable once with the verifier.
final class LoginDoor: Sendable {
  /// An authorization request waiting for its form.
  struct Pending: Sendable {
    /// The authorization request's target, checked when it arrived.
    let target: String
    let expires: Date
    var failures = 0
  }

  /// How long a login form stays usable.
  static let lifetime: TimeInterval = 600
  /// Wrong passwords before a pending login is dropped.
  static let maximumFailures = 5
  /// Wrong passwords for one account name, across every pending login, before the account's
  /// logins are refused until its window ends (even with the right password): guessing can
  /// not be spread over fresh pending logins.
  static let maximumAccountFailures = 10
  /// The window an account's wrong passwords are counted in.
  static let accountWindow: TimeInterval = 900
  /// Account names whose failures are remembered at most (names no one has are counted too,
  /// so the answer never tells which accounts exist).
  static let maximumTrackedAccounts = 10_000
  /// Pending logins kept at most (the oldest goes first): a flood of authorization requests
  /// cannot grow the server without bound.
  static let maximumPending = 1000

  let authorizations = PKCEAuthorizations<DemoSession>()
  private let pending = LockIsolated<[String: Pending]>([:])
  private let accountFailures = LockIsolated<[String: AccountFailures]>([:])

  /// Wrong passwords for one account name in the current window.
  private struct AccountFailures {
    var count: Int
    let windowEnds: Date
  }

  /// When the logins of account `username` are refused until, if they are.
  func lockedOut(_ username: String, now: Date = Date()) -> Date? {
    accountFailures.withValue { failures in
      guard let found = failures[username], found.windowEnds > now,
        found.count >= Self.maximumAccountFailures
      else { return nil }
      return found.windowEnds
    }
  }

  /// Counts a wrong password for account `username`.
  func failAccount(_ username: String, now: Date = Date()) {
    accountFailures.withValue { failures in
      if failures.count >= Self.maximumTrackedAccounts {
        failures = failures.filter { $0.value.windowEnds > now }
      }
      guard failures.count < Self.maximumTrackedAccounts || failures[username] != nil else {
        return
      }
      var found =
        failures[username].flatMap { $0.windowEnds > now ? $0 : nil }
        ?? AccountFailures(count: 0, windowEnds: now.addingTimeInterval(Self.accountWindow))
      found.count += 1
      failures[username] = found
    }
  }

  /// Registers a pending login for a valid authorization request; `nil` when a parameter is
  /// missing or wrong (the same checks ``PKCEAuthorizations/authorize(_:granting:)`` makes).
  func open(_ request: HTTPServerRequest, now: Date = Date()) -> String? {
    guard request.queryValue("response_type") == "code",
      request.queryValue("code_challenge_method") == "S256",
      let challenge = request.queryValue("code_challenge"), !challenge.isEmpty,
      let state = request.queryValue("state"), !state.isEmpty,
      let redirect = request.queryValue("redirect_uri"),
      let components = URLComponents(string: redirect),
      components.scheme == "http", components.host == "127.0.0.1"
    else { return nil }
    let id = PKCE.randomToken(byteCount: 18)
    pending.withValue { pending in
      pending = pending.filter { $0.value.expires > now }
      if pending.count >= Self.maximumPending,
        let oldest = pending.min(by: { $0.value.expires < $1.value.expires })?.key
      {
        pending[oldest] = nil
      }
      pending[id] = Pending(target: request.target, expires: now.addingTimeInterval(Self.lifetime))
    }
    return id
  }

  /// The pending login `id`, if it is still open.
  func find(_ id: String, now: Date = Date()) -> Pending? {
    pending.withValue { pending in
      guard let found = pending[id], found.expires > now else { return nil }
      return found
    }
  }

  /// Counts a failed attempt of login `id` (dropping it after too many).
  func fail(_ id: String) {
    pending.withValue { pending in
      guard var found = pending[id] else { return }
      found.failures += 1
      pending[id] = found.failures >= Self.maximumFailures ? nil : found
    }
  }

  /// Spends login `id` for `session`: the redirect back to the app, with a code and the state.
  func complete(_ id: String, granting session: DemoSession) -> HTTPServerResponse? {
    guard let found = pending.withValue({ $0.removeValue(forKey: id) }) else { return nil }
    return authorizations.authorize(
      HTTPServerRequest(method: .get, target: found.target), granting: session)
  }

  /// The login form for pending login `id`, with `message` above it.
  static func page(login id: String, message: String? = nil, status: Int = 200)
    -> HTTPServerResponse
  {
    let notice = message.map { "<p class=\"error\">\(escape($0))</p>\n" } ?? ""
    let html = """
      <!doctype html>
      <title>Sign in to the demo</title>
      <h1>Sign in to the demo</h1>
      \(notice)<form method="post" action="\(DemoAPI.login)">
      <input type="hidden" name="\(DemoAPI.loginField)" value="\(escape(id))">
      <label>Username <input name="username" autocomplete="username"></label>
      <label>Password
        <input type="password" name="password" autocomplete="current-password"></label>
      <button type="submit">Sign in</button>
      </form>

      """
    var response = HTTPServerResponse(status: status, body: .bytes(Data(html.utf8)))
    response.headers["Content-Type"] = "text/html; charset=utf-8"
    response.headers["Cache-Control"] = "no-store"
    return response
  }

  private static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
