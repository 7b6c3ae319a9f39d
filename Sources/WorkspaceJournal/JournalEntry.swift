import ComposableWorkspace

/// What the journal holds of one attempt: its intent, and its record once the client answered.
///
/// - ``record`` `nil`: the outcome is unknown (the call went out, or may have): sending the
///   same request again — same key — is the only way to learn it, and creates nothing twice.
/// - ``record`` set: the record exists. The entry stays until the application says it has kept
///   the record durably (``PublicationJournal/acknowledge(_:)``), so a crash in between cannot
///   lose it.
public struct JournalEntry: Codable, Hashable, Sendable {
  /// The attempt.
  public var intent: PublicationIntent
  /// The record the client answered for it, once known.
  public var record: ProposalRecord?

  public init(intent: PublicationIntent, record: ProposalRecord? = nil) {
    self.intent = intent
    self.record = record
  }

  /// Whether the attempt's outcome is still unknown.
  public var isPending: Bool { record == nil }
}
