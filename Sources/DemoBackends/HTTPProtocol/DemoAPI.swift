import Foundation

/// The demo server's HTTP protocol, version 1: every path, header and cookie name the
/// reference server (`demo-cli serve`, module `DemoServer`) answers and the HTTP backend
/// (`DemoHTTPBackend`) calls. Paths are already percent-encoded.
///
/// | Method and path | Access | What |
/// | --- | --- | --- |
/// | `GET /v1/auth/authorize?…` | public | the PKCE sign-in door: a login form (RFC 7636, S256) |
/// | `POST /v1/auth/login` | public | the form's answer: 302 to the app's redirect, with a code |
/// | `POST /v1/auth/token` | public | the exchange with the verifier: the cookies and ``Me`` |
/// | `POST /v1/auth/logout` | session | ends the session; its cookies are deleted |
/// | `GET /v1/me` | session | who is signed in (``Me``) |
/// | `POST /v1/authoring/admissions` | session | admission: a ``Grant`` (201) or 403 |
/// | `GET /v1/authoring/grants/{id}` | session | validates a grant (200, or 403) |
/// | `DELETE /v1/authoring/grants/{id}` | session | gives a grant up (204) |
/// | `GET /v1/branches` | public | the branches and their heads (``Branch``) |
/// | `GET /v1/branches/{branch}` | public | the head revision with its events (``Revision``) |
/// | `GET /v1/branches/{branch}/revisions/{id}` | public | one revision (``Revision``) |
/// | `GET /v1/proposals` | public | the proposal listing (it lags behind new records) |
/// | `POST /v1/proposals` | session | creates a proposal (``NewProposal``); `Idempotency-Key` |
/// | `GET /v1/review/proposals` | public | every record, without lag (the reviewer's view) |
/// | `GET /v1/review/proposals/{id}` | public | one record |
/// | `POST /v1/review/proposals/{id}/merge` | session | a reviewer lands it (``Merged``) |
/// | `GET /v1/events` | session | server-sent ``Announcement``s, resumable with `Last-Event-ID` |
///
/// Every mutation of a session echoes the `csrf` cookie as `X-CSRF-Token`. An answer to a
/// session call rotates both cookies when they are due (once a minute by default); a rotated
/// value stays honoured for a grace period (two minutes by default), so calls in flight with it
/// still get in. A session call without a live session, or with a value superseded longer
/// ago than the grace, answers 401. A read that names a grant (``grantHeader``) is a session call checked against
/// that grant: 403 (``Problem/Code/grantInvalid`` or ``Problem/Code/admissionDenied``) when
/// the server no longer honours it. Refusals are ``Problem`` documents.
public enum DemoAPI {
  public static let authorize = "/v1/auth/authorize"
  public static let login = "/v1/auth/login"
  public static let token = "/v1/auth/token"
  public static let logout = "/v1/auth/logout"
  public static let me = "/v1/me"
  public static let admissions = "/v1/authoring/admissions"
  public static let branches = "/v1/branches"
  public static let proposals = "/v1/proposals"
  public static let reviewProposals = "/v1/review/proposals"
  public static let events = "/v1/events"

  /// `/v1/authoring/grants/{id}`.
  public static func grant(_ id: String) -> String {
    "/v1/authoring/grants/\(segment(id))"
  }

  /// `/v1/branches/{branch}`.
  public static func branch(_ name: String) -> String {
    "\(branches)/\(segment(name))"
  }

  /// `/v1/branches/{branch}/revisions/{id}`.
  public static func revision(_ id: String, of branch: String) -> String {
    "\(Self.branch(branch))/revisions/\(segment(id))"
  }

  /// `/v1/review/proposals/{id}`.
  public static func reviewProposal(_ id: String) -> String {
    "\(reviewProposals)/\(segment(id))"
  }

  /// `/v1/review/proposals/{id}/merge`.
  public static func merge(_ id: String) -> String {
    "\(reviewProposal(id))/merge"
  }

  /// The route patterns the server registers (`{name}` matches one segment).
  public enum Pattern {
    public static let grant = "/v1/authoring/grants/{id}"
    public static let branch = "/v1/branches/{branch}"
    public static let revision = "/v1/branches/{branch}/revisions/{revision}"
    public static let reviewProposal = "/v1/review/proposals/{id}"
    public static let merge = "/v1/review/proposals/{id}/merge"
  }

  /// The session cookie (HttpOnly); its value is a secret.
  public static let sessionCookie = "session"
  /// The CSRF cookie, echoed as ``csrfHeader`` on every mutation; its value is a secret.
  public static let csrfCookie = "csrf"
  public static let csrfHeader = "X-CSRF-Token"
  /// Names the grant a workspace call acts under (a grant id, not a secret: it is only honoured
  /// for the session it was issued to).
  public static let grantHeader = "X-Authoring-Grant"
  /// Set to `true` on the answer to a retried proposal creation that replays the first one.
  public static let replayedHeader = "Idempotent-Replayed"

  /// The hidden field of the login form that names the pending sign-in.
  public static let loginField = "login"

  /// One path segment, percent-encoded (`/`, `?`, `#` and `%` included).
  public static func segment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? ""
  }

  private static let segmentAllowed = CharacterSet(
    charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
