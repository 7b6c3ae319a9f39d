/// Marks an error that may succeed if the same operation is tried again: a timeout, a dropped
/// connection, a "busy, retry later" answer.
///
/// ``Workspace`` retries `publishProposal` on errors conforming to this protocol (and only on
/// them), with backoff on `@Dependency(\.clock)` as its ``PublicationRetryPolicy`` says, always
/// with the same ``ProposalRequest`` and so the same idempotency key. Every other error is
/// final for the attempt. Other operations are not retried automatically: their failure goes to
/// the requesting UI, which may send the action again.
///
/// It is the only layer that retries a publication: a client makes one attempt per
/// `publishProposal` call and throws this for a failure worth another (see "One layer retries
/// a publication" in <doc:WritingAWorkspaceClient>).
///
/// Conform your integration's retryable errors, or throw ``WorkspaceUnavailableError``:
///
/// ```swift
/// extension GitTransportError: WorkspaceTransientError {}
/// ```
public protocol WorkspaceTransientError: Error {}

/// A ready-made transient error: the remote could not be reached, or asked to be retried.
public struct WorkspaceUnavailableError: WorkspaceTransientError, Hashable, Sendable,
  CustomStringConvertible
{
  /// What happened, for the user.
  public var message: String

  public init(_ message: String = "The workspace service is temporarily unavailable.") {
    self.message = message
  }

  public var description: String { message }
}
