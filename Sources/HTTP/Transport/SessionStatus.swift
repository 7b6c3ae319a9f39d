/// Whether an ``HTTPSession`` is signed in: a state, not an error string.
public enum SessionStatus: Sendable, Hashable, CustomStringConvertible {
  /// No session: never signed in (`nil`), or ended for the given reason.
  case signedOut(SessionEnd?)
  /// A sign-in was verified (``HTTPSession/beginSession()``) and nothing has ended it since.
  case signedIn

  public var isSignedIn: Bool { self == .signedIn }

  public var description: String {
    switch self {
    case .signedIn: "signed in"
    case .signedOut(nil): "signed out"
    case .signedOut(let end?): "signed out (\(end))"
    }
  }
}

/// Why a session ended.
public enum SessionEnd: Sendable, Hashable, CustomStringConvertible {
  /// The app signed out.
  case signedOut
  /// A session call answered 401.
  case unauthorized
  /// The server's own signal that the session is gone, as the session's
  /// ``SessionEndDetector`` read it (e.g. Fossil answering "nobody").
  case serverSignal(String)

  public var description: String {
    switch self {
    case .signedOut: "the app signed out"
    case .unauthorized: "the server answered 401"
    case .serverSignal(let signal): "the server ended the session: \(signal)"
    }
  }
}

/// Decides from a session call's response whether the server has ended the session.
///
/// ```swift
/// // Fossil's JSON API never answers 401: a gated call answers FOSSIL-2002, confirmed by
/// // a whoami that answers "nobody".
/// let detector = SessionEndDetector { response in
///   if response.status == 401 { return .unauthorized }
///   guard response.text.contains("FOSSIL-2002") else { return nil }
///   return await whoamiAnswersNobody() ? .serverSignal("whoami: nobody") : nil
/// }
/// ```
public struct SessionEndDetector: Sendable {
  /// Answers why the session ended, or `nil` when the response leaves it alive.
  public var detect: @Sendable (HTTPResponse) async -> SessionEnd?

  public init(detect: @escaping @Sendable (HTTPResponse) async -> SessionEnd?) {
    self.detect = detect
  }

  /// A 401 ends the session; nothing else does.
  public static let unauthorized = SessionEndDetector { response in
    response.status == 401 ? .unauthorized : nil
  }
}
