/// The attempt's intent could not be made durable, so the call was not sent (nothing can have
/// been created). Sending it again is safe.
public struct PublicationIntentNotDurable: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why the write failed.
  public var reason: String

  public var description: String {
    "the attempt could not be recorded before sending it, so it was not sent (\(reason))"
  }
}

/// The attempt belongs to another person: its intent was journaled by ``intent``'s owner, and
/// only they may send it again (it may already have created a record in their name).
public struct PublicationIntentOwnedByAnotherPerson: Error, Hashable, Sendable,
  CustomStringConvertible
{
  /// The journaled intent.
  public var intent: PublicationIntent

  public var description: String {
    "this publication was begun by \(intent.owner ?? "someone else") and only they may send it; "
      + "it was not sent"
  }
}

/// What a ``JournalStorage`` holds cannot be read as a journal; nothing was changed.
public struct JournalUnreadable: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why.
  public var reason: String

  public var description: String { "the publication journal cannot be read: \(reason)" }
}
