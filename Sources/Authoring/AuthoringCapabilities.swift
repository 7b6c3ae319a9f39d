/// What a validated grant allows its holder to do.
///
/// The admission policy (through ``AuthoringClient``) decides the capabilities; Authoring only
/// carries them in ``AuthoringContext``. Encodes as its integer raw value.
public struct AuthoringCapabilities: OptionSet, Hashable, Sendable, Codable {
  public let rawValue: Int

  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// May edit the local writable content.
  public static let edit = Self(rawValue: 1 << 0)

  /// May publish edits (what publishing means is the application's business).
  public static let publish = Self(rawValue: 1 << 1)
}
