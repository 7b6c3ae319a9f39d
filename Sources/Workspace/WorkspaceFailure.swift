import Foundation

/// A failure the user should see: why preparation failed, or why an operation requested by a
/// form did not complete. `Equatable`, so it can live in state and be asserted in tests.
///
/// Build one from any error with ``init(_:)``; the message is the error's
/// `LocalizedError.errorDescription` when it has one, else its description.
///
/// Only preparation failure is durable (``WorkspaceAvailability/preparationFailed(_:)``),
/// because no coherent session exists then. Every other failure is delivered to the requesting
/// UI in a delegate action and leaves the ready session intact.
public struct WorkspaceFailure: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// What sort of failure, so a UI can choose what to offer (for example "try again").
  public enum Kind: String, Hashable, Sendable, Codable {
    /// A ``WorkspaceTransientError``, after any automatic retries: trying again may work.
    case transient
    /// The remote head moved (``WorkspaceHeadMismatch``).
    case headMoved
    /// The capability was invalidated (``WorkspaceAuthorizationError``).
    case authorizationInvalidated
    /// The client broke the integration contract (``WorkspaceContractViolation``).
    case invalidIntegratorOutput
    /// Anything else.
    case other
  }

  /// What sort of failure.
  public var kind: Kind
  /// A readable explanation.
  public var message: String

  public init(kind: Kind = .other, message: String) {
    self.kind = kind
    self.message = message
  }

  /// Describes `error`. A `WorkspaceFailure` is returned unchanged.
  public init(_ error: any Error) {
    if let failure = error as? WorkspaceFailure {
      self = failure
      return
    }
    let kind: Kind =
      switch error {
      case is WorkspaceTransientError: .transient
      case is WorkspaceHeadMismatch: .headMoved
      case is WorkspaceAuthorizationError: .authorizationInvalidated
      case is WorkspaceContractViolation: .invalidIntegratorOutput
      default: .other
      }
    let message: String
    if let localized = error as? any LocalizedError, let text = localized.errorDescription {
      message = text
    } else {
      message = String(describing: error)
    }
    self.init(kind: kind, message: message)
  }

  public var description: String { message }
}
