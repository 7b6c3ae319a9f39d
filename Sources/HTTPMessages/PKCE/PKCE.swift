import Foundation

/// The proof key of one sign-in (RFC 7636): a random verifier kept by the app, and its S256
/// challenge sent with the authorization request.
///
/// ```swift
/// let pkce = PKCE()                 // 32 random bytes → a 43-character verifier
/// pkce.challenge                     // BASE64URL(SHA256(verifier))
/// try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge
///                                    // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
/// ```
///
/// Its description never shows the verifier.
public struct PKCE: Sendable, Hashable, CustomStringConvertible {
  /// The secret the token exchange proves possession of. Never log it.
  public let verifier: String

  /// A fresh verifier from 32 bytes of the system's secure random source.
  public init() {
    self.verifier = Self.randomToken(byteCount: 32)
  }

  /// A given verifier: 43–128 characters of `[A-Za-z0-9-._~]` (RFC 7636 §4.1), or
  /// ``InvalidPKCEVerifier`` (which never repeats the verifier).
  public init(verifier: String) throws(InvalidPKCEVerifier) {
    guard (43...128).contains(verifier.utf8.count) else {
      throw InvalidPKCEVerifier(reason: "it has \(verifier.utf8.count) characters, not 43–128")
    }
    guard verifier.utf8.allSatisfy(Self.isUnreserved) else {
      throw InvalidPKCEVerifier(reason: "it has a character outside A–Z a–z 0–9 - . _ ~")
    }
    self.verifier = verifier
  }

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))`.
  public var challenge: String {
    Self.base64URL(SHA256.hash(Array(verifier.utf8)))
  }

  /// Always `S256` (the `plain` method proves nothing against an interceptor).
  public var challengeMethod: String { "S256" }

  public var description: String { "PKCE(S256, verifier <redacted>)" }

  /// `byteCount` random bytes from the system's secure generator, base64url-encoded without
  /// padding (also used for the `state` nonce).
  public static func randomToken(byteCount: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return base64URL(
      (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  /// Base64url without padding (RFC 4648 §5, RFC 7636 appendix A).
  public static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}

/// A PKCE verifier RFC 7636 §4.1 does not allow. Its description says why, never the value.
public struct InvalidPKCEVerifier: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why the verifier was refused.
  public let reason: String

  public var description: String { "not a PKCE verifier: \(reason)" }
}
