/// How ``Workspace`` retries `publishProposal` after a ``WorkspaceTransientError``: the one
/// place a publication is retried (clients make one attempt per call).
///
/// Each entry of ``delays`` is one retry, slept on `@Dependency(\.clock)` before it (so tests
/// drive it with `TestClock`). Every retry sends the same ``ProposalRequest``, so the same
/// idempotency key. When the retries are used up, the last transient error is reported to the
/// form as a ``WorkspaceFailure`` of kind ``WorkspaceFailure/Kind/transient``.
///
/// ```swift
/// Workspace<EventSource, EventPatch>(publicationRetry: PublicationRetryPolicy(delays: [.seconds(2)]))
/// ```
public struct PublicationRetryPolicy: Hashable, Sendable {
  /// The wait before each retry; its count is the number of retries.
  public var delays: [Duration]

  public init(delays: [Duration]) {
    self.delays = delays
  }

  /// Three retries, after 1, 2 and 4 seconds.
  public static let standard = PublicationRetryPolicy(delays: [
    .seconds(1), .seconds(2), .seconds(4),
  ])

  /// No retries: the first transient failure is final.
  public static let none = PublicationRetryPolicy(delays: [])
}
