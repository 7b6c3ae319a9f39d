import DemoBackendInterface
import FossilWorkspace
import Foundation

/// A proposal's discussion on the Fossil server: its forum thread, read by anyone who may read
/// and posted to as the signed-in person (``FossilWorkspaceClient/discuss(_:on:inReplyTo:)``).
struct FossilForumDiscussion: ProposalDiscussion {
  /// The signed-in person's workspace client.
  let fossil: FossilWorkspaceClient

  var place: String { "the Fossil forum" }

  func posts(of proposalID: String) async throws -> [DiscussionPost] {
    try await fossil.discussion(of: proposalID).posts.map(Self.post)
  }

  func post(_ text: String, on proposalID: String) async throws -> DiscussionPost {
    Self.post(try await fossil.discuss(text, on: proposalID))
  }

  private static func post(_ post: FossilForumPost) -> DiscussionPost {
    DiscussionPost(
      id: post.id, author: post.author, date: post.date, text: post.text,
      inReplyTo: post.inReplyTo, isAwaitingModeration: post.isAwaitingModeration)
  }
}
