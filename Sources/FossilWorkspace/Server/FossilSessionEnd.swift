import ComposableCore
import Foundation
import WorkspaceHTTP

/// How a Fossil session is seen to have ended. Fossil's JSON API never answers 401: a token it
/// no longer honours (logged out elsewhere — one session per user —, expired, or replaced)
/// makes it answer as `nobody`, and calls that need a login answer `FOSSIL-2xxx`. Either
/// signal is confirmed by a public `/json/whoami` carrying the session's cookie: only its
/// `nobody` ends the session (once; later session calls then fail at once, without a request).
/// A user who is still signed in but lost a capability is not signed out.
enum FossilSessionEnd {
  /// The detector for `reference`'s session (set once the session exists).
  static func detector(_ reference: SessionReference) -> SessionEndDetector {
    SessionEndDetector { response in
      guard mayMeanSignedOut(response), let session = reference.session else { return nil }
      guard let answer = try? await session.send(.get("/json/whoami", access: .public)),
        let whoami = try? FossilAnswer.payload(answer, of: "GET /json/whoami", as: WhoAmI.self),
        whoami.name == FossilUser.nobodyName
      else { return nil }
      return .serverSignal("Fossil answers as nobody: the login is no longer honoured")
    }
  }

  /// Whether an answer is one a signed-out session gets: an authorization refusal, or a
  /// payload naming `nobody`.
  static func mayMeanSignedOut(_ response: HTTPResponse) -> Bool {
    if response.status == 401 || response.status == 403 { return true }
    let text = response.body.prefix(4096)
    return text.range(of: Data("\"FOSSIL-20".utf8)) != nil
      || text.range(of: Data("\"name\":\"nobody\"".utf8)) != nil
  }

  /// The `/json/whoami` payload.
  struct WhoAmI: Decodable {
    var name: String
    var capabilities: String?
  }
}

/// The session a detector confirms through, set after the session is made (the detector is
/// part of the session's configuration). Weak, so the pair does not keep itself alive.
final class SessionReference: Sendable {
  private struct Weak: @unchecked Sendable {
    weak var session: HTTPSession?
  }

  private let storage = LockIsolated(Weak())

  var session: HTTPSession? { storage.withValue { $0.session } }

  func set(_ session: HTTPSession) {
    storage.withValue { $0.session = session }
  }
}
