/// An opaque authoring grant: the token (or token id) an admission policy issued, which a later
/// run can revalidate.
///
/// Authoring never interprets a grant. It stores one only inside a validated
/// ``AuthoringContext``, hands it back to ``AuthoringClient`` to validate, persist, discard or
/// relinquish, and compares grants for equality. What the value means — a bearer token, a row id,
/// a signed capability — is the client's business.
///
/// It encodes as its raw string.
public struct AuthoringGrant: RawRepresentable, Hashable, Sendable, Codable {
  /// The grant as its issuer spelled it.
  public let rawValue: String

  /// Wraps an issuer's grant value.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }
}
