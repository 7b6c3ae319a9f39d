extension Authoring {
  /// Authoring's state: the admission of the current application session, and through it the
  /// validated capability.
  ///
  /// Only Authoring changes it (`admission` has an internal setter); a parent that needs a
  /// particular state, for example to assert one in a test, builds a whole value with
  /// ``init(admission:)``. Work in progress is not state: see ``AuthoringOperation``.
  /// Replace a running feature's Authoring state only with no admission work in flight: an
  /// operation decides its lifecycle event from the state it started with.
  public struct State: Equatable, Sendable {
    /// Whether the current session is admitted, and with which capability.
    public internal(set) var admission: AdmissionStatus

    /// The currently validated capability, or `nil` when not admitted — what wrapped content
    /// receives, read-only.
    public var context: AuthoringContext? { admission.context }

    /// Creates Authoring state; applications start with `.notAdmitted` and send
    /// `restoreAuthorization`.
    public init(admission: AdmissionStatus = .notAdmitted) {
      self.admission = admission
    }
  }
}
