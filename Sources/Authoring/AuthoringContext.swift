/// The currently validated authoring capability: whose grant it is, the grant itself, and what
/// it allows.
///
/// A context exists only after ``AuthoringClient`` validated a grant (``AuthoringClient/validate``)
/// or admitted the current session (``AuthoringClient/requestAdmission``); Authoring never builds
/// one from a grant it has not validated. Wrapped content receives it as a value and cannot
/// change Authoring's copy: the capability in force is always ``Authoring/State/context``.
///
/// It is deterministic data (no timestamps), so it compares and encodes stably.
public struct AuthoringContext: Equatable, Sendable, Codable {
  /// The account or person the grant belongs to.
  public let identity: AuthoringIdentity
  /// The validated grant.
  public let grant: AuthoringGrant
  /// What the grant allows.
  public let capabilities: AuthoringCapabilities

  public init(
    identity: AuthoringIdentity,
    grant: AuthoringGrant,
    capabilities: AuthoringCapabilities
  ) {
    self.identity = identity
    self.grant = grant
    self.capabilities = capabilities
  }

  /// Whether the grant allows editing local writable content.
  public var canEdit: Bool { capabilities.contains(.edit) }

  /// Whether the grant allows publishing edits.
  public var canPublish: Bool { capabilities.contains(.publish) }
}
