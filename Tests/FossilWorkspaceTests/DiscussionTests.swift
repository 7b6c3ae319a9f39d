import ComposableWorkspace
import Foundation
import HTTPTestSupport
import LoopbackHTTPServer
import Testing

@testable import FossilWorkspace

/// A proposal's review discussion is a thread of the repository's own forum, posted through
/// Fossil's forum editor as the signed-in person and read by anyone who may read.
@Suite("Fossil proposal discussion", .requires(.fossil))
struct DiscussionTests {
  @Test func aReviewersCommentAndTheAuthorsReplyAreTheProposalsForumThread() async throws {
    try await FossilFixture.with { fixture in
      // Trusted forum posters (`4`): their posts need no moderator.
      try await fixture.repository.setCapabilities("io4", of: "ada")
      try await fixture.repository.setCapabilities("io4", of: "grace")
      let harness = try await WorkspaceHarness.make(fixture)
      let request = WorkspaceHarness.request("Move the concert")
      let record = try await harness.proposeAnEdit(request)
      let reviewer = try await Self.client(fixture, signedInAs: FossilFixture.grace)

      // The post is answered as the repository holds it: Fossil's form reading ends lines
      // with LF and drops trailing white space; the rest is kept byte for byte.
      let question = "Why *May*?\nThe hall is free in April — see ✓ below."
      let comment = try await reviewer.discuss(
        "Why *May*?\r\nThe hall is free in April — see ✓ below. \r\n", on: record.id)
      #expect(comment.author == "grace")
      #expect(comment.thread == comment.id)
      #expect(comment.inReplyTo == nil)
      #expect(comment.text == question)
      #expect(comment.title == "Review of “Move the concert” [\(record.id)]")
      #expect(!comment.isAwaitingModeration)

      // The author answers with the bare key; the reply goes to the newest post.
      let reply = try await harness.fossil.discuss(
        "The hall is booked in April.", on: request.idempotencyKey.uuidString)
      #expect(reply.author == "ada")
      #expect(reply.thread == comment.id)
      #expect(reply.inReplyTo == comment.id)

      // What a Fossil user sees: two posts, the reply's artifact names its author and the
      // post it answers.
      let artifact = try await fixture.artifact(reply.id)
      #expect(artifact.contains("U ada\n"))
      #expect(artifact.contains("I \(comment.id)\n"))
      #expect(artifact.contains("G \(comment.id)\n"))
      #expect(try await fixture.repository.sql("SELECT count(*) FROM forumpost;") == "2\n")

      // Reading is public: a reader without forum capabilities and a signed-out client see
      // the whole thread, texts exact.
      for (who, client) in [
        ("linus", try await Self.client(fixture, signedInAs: FossilFixture.linus)),
        ("signed out", Self.client(fixture, session: FossilSession(baseURL: fixture.baseURL))),
      ] {
        let discussion = try await client.discussion(of: record.id)
        #expect(discussion.proposal == record.id, "\(who)")
        #expect(discussion.threads == [comment.id], "\(who)")
        #expect(discussion.posts.map(\.id) == [comment.id, reply.id], "\(who)")
        #expect(discussion.posts.map(\.text) == [question, "The hall is booked in April."])
      }
    }
  }

  @Test func aPersonTheForumDoesNotLetPostIsToldSoAndNothingIsPosted() async throws {
    try await FossilFixture.with { fixture in
      let harness = try await WorkspaceHarness.make(fixture)
      let record = try await harness.proposeAnEdit()

      // ada may check in but has no forum capability: Fossil sends her editor to its login.
      let refusal = await #expect(throws: FossilForumError.notPermittedToPost(user: "ada")) {
        try await harness.fossil.discuss("Looks good.", on: record.id)
      }
      #expect(refusal?.description.contains("not permitted to post here") == true)
      #expect(harness.session.status.isSignedIn)  // a refusal, not a sign-out

      let signedOut = Self.client(fixture, session: FossilSession(baseURL: fixture.baseURL))
      await #expect(throws: FossilForumError.signInRequired) {
        try await signedOut.discuss("Looks good.", on: record.id)
      }
      await #expect(throws: FossilForumError.emptyPost) {
        try await harness.fossil.discuss(" \n\t", on: record.id)
      }
      try await fixture.repository.setCapabilities("io4", of: "ada")
      await #expect(throws: FossilWorkspaceError.proposalNotFound("proposal-nothing")) {
        try await harness.fossil.discuss("Hello?", on: "proposal-nothing")
      }
      await #expect(throws: FossilForumError.postNotFound("abcdef")) {
        try await harness.fossil.discuss("Hello?", on: record.id, inReplyTo: "abcdef")
      }
      #expect(try await harness.fossil.discussion(of: record.id).posts.isEmpty)
      let posts = try await fixture.repository.sql(
        "SELECT count(*) FROM sqlite_master WHERE name = 'forumpost';")
      #expect(posts == "0\n", "no post was made")
    }
  }

  @Test func aPostOfAnUntrustedPosterWaitsForAModerator() async throws {
    try await FossilFixture.with { fixture in
      try await fixture.repository.setCapabilities("io4", of: "grace")
      try await fixture.repository.setCapabilities("io3", of: "ada")
      let harness = try await WorkspaceHarness.make(fixture)
      let record = try await harness.proposeAnEdit()
      let reviewer = try await Self.client(fixture, signedInAs: FossilFixture.grace)
      let comment = try await reviewer.discuss("Why?", on: record.id)

      let reply = try await harness.fossil.discuss("Because.", on: record.id)
      #expect(reply.isAwaitingModeration)
      #expect(reply.author == "ada")
      #expect(reply.inReplyTo == comment.id)
      // The server holds it, private until a moderator approves it; readers do not see it yet.
      let held = try await fixture.repository.sql(
        "SELECT count(*) FROM private JOIN blob USING(rid) WHERE uuid LIKE '\(reply.id)%';")
      #expect(held == "1\n")
      #expect(try await reviewer.discussion(of: record.id).posts.map(\.id) == [comment.id])
    }
  }

  /// Someone edits the thread's first post in Fossil's own pages: the edit has a hash of its
  /// own, but the thread is still the proposal's, and replies still go into it.
  @Test func aThreadWhoseFirstPostWasEditedIsStillTheDiscussion() async throws {
    try await FossilFixture.with { fixture in
      try await fixture.repository.setCapabilities("io4", of: "ada")
      try await fixture.repository.setCapabilities("io4", of: "grace")
      let harness = try await WorkspaceHarness.make(fixture)
      let record = try await harness.proposeAnEdit()
      let session = try await fixture.signedIn(FossilFixture.grace)
      let reviewer = Self.client(fixture, session: session)
      let comment = try await reviewer.discuss("Why?", on: record.id)

      let editor = FossilForumEditor(session: session)
      let form = try await editor.open(
        "/forumedit",
        query: [URLQueryItem(name: "fpid", value: comment.id), .init(name: "edit", value: "1")],
        action: "/forume2")
      let edited = try await editor.submit(
        form,
        fields: [
          .init("fpid", comment.id), .init("edit", "1"), .init("title", comment.title ?? ""),
          .init("mimetype", "text/x-markdown"), .init("content", "Why May?"),
          .init("submit", "Submit"),
        ])

      let discussion = try await harness.fossil.discussion(of: record.id)
      #expect(discussion.threads == [comment.id])
      #expect(discussion.posts.map(\.text) == ["Why May?"])
      #expect(discussion.posts.first.map { $0.id.hasPrefix(edited) } == true)
      let reply = try await harness.fossil.discuss("Because.", on: record.id)
      #expect(reply.thread == comment.id)
      #expect(try await harness.fossil.discussion(of: record.id).threads == [comment.id])
    }
  }

  /// A login that lapses between the editor and the submission, on a forum that lets anyone
  /// post: Fossil makes the post as `anonymous`, and the client says so instead of "posted".
  @Test func aPostMadeAsSomeoneElseIsReportedNotClaimed() async throws {
    try await FossilFixture.with { fixture in
      try await fixture.repository.setCapabilities("io4", of: "ada")
      try await fixture.repository.setCapabilities("gjorz34", of: "nobody")
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let harness = try await WorkspaceHarness.make(fixture, through: proxy.baseURL)
      let record = try await harness.proposeAnEdit()
      proxy.intercept { incoming in
        guard incoming.path == "/forume1" else { return nil }
        return FossilProxy.Interception(before: {
          try? await fixture.repository.expireLogin(of: "ada")
        })
      }
      let error = await #expect(throws: FossilForumError.self) {
        try await harness.fossil.discuss("Looks good.", on: record.id)
      }
      guard case .postedAs(let author, let expected, _)? = error else {
        Issue.record("expected a post made as someone else, got \(String(describing: error))")
        return
      }
      #expect(author == "anonymous")
      #expect(expected == "ada")
      await proxy.stop()
    }
  }

  /// The server names a post that the pull after it does not bring, for a person whose posts
  /// need no moderator: the post is reported as made but not read back, never as not posted.
  @Test func aPostTheRepositoryDoesNotHoldAfterwardsIsNotReadBack() async throws {
    try await FossilFixture.with { fixture in
      try await fixture.repository.setCapabilities("io4", of: "ada")
      let proxy = try FossilProxy(upstream: fixture.baseURL)
      let harness = try await WorkspaceHarness.make(fixture, through: proxy.baseURL)
      let record = try await harness.proposeAnEdit()
      proxy.intercept { incoming in
        guard incoming.path == "/forume1" else { return nil }
        var named = HTTPServerResponse.status(302)
        named.headers.add("Location", "\(proxy.baseURL)/forumpost/0123456789")
        return FossilProxy.Interception(replacement: named)
      }
      let error = await #expect(throws: FossilForumError.self) {
        try await harness.fossil.discuss("Looks good.", on: record.id)
      }
      guard case .notReadBack(let post, _)? = error else {
        Issue.record("expected a post not read back, got \(String(describing: error))")
        return
      }
      #expect(post == "0123456789")
      #expect(error?.description.contains("do not send it again") == true)
      await proxy.stop()
    }
  }

  /// A client of its own for `session`, with a root of its own.
  static func client(_ fixture: FossilFixture, session: FossilSession) -> FossilWorkspaceClient {
    FossilWorkspaceClient(
      session: session,
      configuration: FossilWorkspaceConfiguration(
        root: fixture.workspaces("discussion-\(UUID().uuidString)")),
      capability: { nil })
  }

  static func client(_ fixture: FossilFixture, signedInAs account: FossilFixture.Account)
    async throws -> FossilWorkspaceClient
  {
    client(fixture, session: try await fixture.signedIn(account))
  }
}
