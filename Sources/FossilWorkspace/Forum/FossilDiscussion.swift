import Foundation

/// A proposal's review discussion: the Fossil forum thread titled for it (see
/// ``FossilWorkspaceClient/discussion(of:)``), oldest post first.
///
/// ```swift
/// let discussion = try await fossil.discussion(of: record.id)
/// for post in discussion.posts { print("\(post.author): \(post.text)") }
/// ```
public struct FossilDiscussion: Hashable, Sendable {
  /// The proposal discussed (its branch).
  public var proposal: String
  /// The forum threads about it, by their first posts' original ids: one, or several when two
  /// people started one at the same time. Empty until someone posts. (A reply goes to the
  /// post it names, or else to the newest post of any of them.)
  public var threads: [String]
  /// Every post of those threads, oldest first, each in its newest edit.
  public var posts: [FossilForumPost]

  public init(proposal: String, threads: [String], posts: [FossilForumPost]) {
    self.proposal = proposal
    self.threads = threads
    self.posts = posts
  }
}
