import ComposableCore
import Foundation

/// The key of one user intent (IETF draft "The Idempotency-Key HTTP Header Field"): made
/// once, kept with the intent until it has a definite answer, sent with every retry.
///
/// ```swift
/// let key = IdempotencyKey(request.idempotencyKey)   // a ProposalRequest's UUID
/// let fresh = IdempotencyKey.make()                  // from the \.uuid dependency
/// ```
public struct IdempotencyKey: RawRepresentable, Sendable, Hashable, Codable,
  CustomStringConvertible
{
  public let rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The lowercased UUID.
  public init(_ uuid: UUID) {
    self.rawValue = uuid.uuidString.lowercased()
  }

  /// A new key from the `\.uuid` dependency (random live, incrementing in tests).
  public static func make() -> IdempotencyKey {
    IdempotencyKey(DependencyValues.current.uuid())
  }

  /// The header value: a structured-field string, `"<key>"`.
  public var headerValue: String {
    "\""
      + rawValue.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// Reads a header value, quoted (as the draft has it) or bare.
  public init?(headerValue: String) {
    let trimmed = headerValue.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return nil }
    guard trimmed.hasPrefix("\""), trimmed.hasSuffix("\""), trimmed.count >= 2 else {
      self.rawValue = trimmed
      return
    }
    let inner = trimmed.dropFirst().dropLast()
      .replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
    guard !inner.isEmpty else { return nil }
    self.rawValue = inner
  }

  public var description: String { rawValue }
}
