/// The admission policy refused authoring to the current application session.
///
/// ``AuthoringClient/requestAdmission`` throws it; Authoring records it as
/// ``AdmissionStatus/denied(_:)`` so the requesting UI can say why.
public struct AdmissionDenied: Error, Equatable, Sendable, Codable {
  /// Why admission was refused, readable by the person who asked.
  public let reason: String

  public init(reason: String) {
    self.reason = reason
  }
}
