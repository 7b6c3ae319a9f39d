/// What `AuthoringClient.validate` throws when the authority definitely rejects a grant (revoked,
/// expired, another identity's). Only this discards a persisted grant; any other error (the
/// network is down, the server is busy) leaves it stored, to be validated again later.
///
/// ```swift
/// validate: { grant in
///   let response = try await api.validate(grant)
///   guard response.valid else { throw AuthoringGrantRejected(reason: response.reason) }
///   return response.context
/// }
/// ```
public struct AuthoringGrantRejected: Error, Equatable, Sendable, CustomStringConvertible {
  /// Why the grant was rejected, in the authority's words.
  public var reason: String

  public init(reason: String = "the grant is no longer valid") {
    self.reason = reason
  }

  public var description: String { reason }
}
