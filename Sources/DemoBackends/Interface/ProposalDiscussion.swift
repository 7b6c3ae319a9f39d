import Foundation

/// A backend whose proposals have a review discussion people post to (the Fossil backend: a
/// thread of the repository's forum per proposal). demo-cli's `discuss` shows and posts it.
///
/// ```swift
/// if let discussion = clients.discussion {
///   try await discussion.post("Why May?", on: proposalID)
///   for post in try await discussion.posts(of: proposalID) { print(post.author, post.text) }
/// }
/// ```
public protocol ProposalDiscussion: Sendable {
  /// Where the discussion lives, as people are told it (`the Fossil forum`).
  var place: String { get }

  /// Proposal `proposalID`'s discussion, oldest post first (empty until someone posts).
  func posts(of proposalID: String) async throws -> [DiscussionPost]

  /// Posts `text` to proposal `proposalID`'s discussion as the signed-in person, and answers
  /// the post as it was made.
  func post(_ text: String, on proposalID: String) async throws -> DiscussionPost
}

/// One post of a proposal's discussion.
public struct DiscussionPost: Hashable, Sendable {
  /// The post's id where it lives (a forum post's artifact hash).
  public var id: String
  /// Who posted it.
  public var author: String
  /// When.
  public var date: Date
  /// What it says.
  public var text: String
  /// The post it answers; `nil` for the first.
  public var inReplyTo: String?
  /// Whether it waits for a moderator's approval (only its author and moderators see it).
  public var isAwaitingModeration: Bool

  public init(
    id: String, author: String, date: Date, text: String, inReplyTo: String? = nil,
    isAwaitingModeration: Bool = false
  ) {
    self.id = id
    self.author = author
    self.date = date
    self.text = text
    self.inReplyTo = inReplyTo
    self.isAwaitingModeration = isAwaitingModeration
  }
}
