import Foundation

/// One post of a Fossil forum thread, as the repository holds it: its artifact, who posted it
/// and when, what it answers, and its text exactly as posted.
public struct FossilForumPost: Hashable, Sendable, Identifiable, CustomStringConvertible {
  /// The post's artifact hash — or, for a post held for moderation (which is not synced
  /// until a moderator approves it), the abbreviation the server answered.
  public var id: String
  /// The thread's first post (its own id for a thread's first post).
  public var thread: String
  /// The post it replies to; `nil` for a thread's first post.
  public var inReplyTo: String?
  /// The user who posted it (`anonymous` for a post by no one signed in).
  public var author: String
  /// When it was posted.
  public var date: Date
  /// The thread's title (a thread's first post only).
  public var title: String?
  /// The text, exactly as posted.
  public var text: String
  /// How the text is marked up (`text/x-markdown`, `text/plain`, …).
  public var mimetype: String
  /// Whether the post waits for a moderator: Fossil holds the posts of a user without the
  /// trusted-forum capability (`4`, or `5`/`6`/`a`/`s`) until one approves them; until then
  /// only its author and moderators see it.
  public var isAwaitingModeration: Bool

  public init(
    id: String, thread: String, inReplyTo: String?, author: String, date: Date,
    title: String?, text: String, mimetype: String, isAwaitingModeration: Bool = false
  ) {
    self.id = id
    self.thread = thread
    self.inReplyTo = inReplyTo
    self.author = author
    self.date = date
    self.title = title
    self.text = text
    self.mimetype = mimetype
    self.isAwaitingModeration = isAwaitingModeration
  }

  public var description: String {
    "\(id.prefix(10)) by \(author)"
      + (isAwaitingModeration ? " (awaiting moderation)" : "") + ": \(text)"
  }
}
