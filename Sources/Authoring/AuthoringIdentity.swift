/// The account or person an ``AuthoringGrant`` belongs to, as the admission policy names it.
///
/// Authoring does not interpret it (it knows no sessions or accounts); it carries it inside
/// ``AuthoringContext`` so content and clients can see whose capability is in force.
///
/// It encodes as its raw string.
public struct AuthoringIdentity: RawRepresentable, Hashable, Sendable, Codable {
  /// The identity as the policy spells it, for example an account id.
  public let rawValue: String

  /// Wraps a policy's identity value.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }
}
