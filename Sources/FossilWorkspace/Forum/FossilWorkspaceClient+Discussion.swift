import Foundation
import WorkspaceHTTP

extension FossilWorkspaceClient {
  /// Proposal `proposalID`'s review discussion (its id, or its bare idempotency key): the
  /// repository's forum thread titled for it, read from the local clone after a `fossil pull`
  /// (forum posts are artifacts like check-ins). Reading is public: it needs no capability and
  /// works for anyone the server lets read, signed in or not. Posts held for moderation are
  /// not listed (Fossil syncs them once a moderator approves them).
  ///
  /// - Throws: ``FossilWorkspaceError/proposalNotFound(_:)`` when there is no such proposal.
  public func discussion(of proposalID: String) async throws -> FossilDiscussion {
    try await serialized {
      let clone = self.clone
      try await clone.pull()
      let branch = try await self.existingProposal(proposalID, in: clone)
      return try await Self.discussion(of: branch, in: clone)
    }
  }

  /// Posts `text` to proposal `proposalID`'s discussion as the session's signed-in person,
  /// through Fossil's own forum editor (see `FossilForumEditor`): the first post starts the
  /// proposal's thread (titled “Review of “<title>” [<branch>]”); later ones reply to
  /// `inReplyTo` (a post's id or an unambiguous prefix of it), or else to the newest post.
  /// Answers the post as the repository then holds it (Fossil's form reading ends its lines
  /// with LF and drops trailing white space) — or, when the person's posts wait for
  /// a moderator (no trusted-forum capability), as sent, marked
  /// ``FossilForumPost/isAwaitingModeration``.
  ///
  /// ```swift
  /// let comment = try await reviewer.discuss("Why move it to May?", on: record.id)
  /// let answer = try await author.discuss("The hall is booked in April.", on: record.id)
  /// answer.inReplyTo == comment.id   // true
  /// ```
  ///
  /// A post is not an authoring act: it needs a signed-in session and the forum's own
  /// capabilities, not the authoring capability. An answer lost in transit is not resent
  /// (Fossil could not tell a second copy from a new post): it is
  /// ``FossilForumError/answerLost(request:reason:mayAwaitModeration:)``.
  ///
  /// - Throws: ``FossilForumError/notPermittedToPost(user:)`` when the forum does not let the
  ///   person post; ``FossilForumError/signInRequired``; ``FossilForumError/emptyPost``;
  ///   ``FossilForumError/postNotFound(_:)`` for an `inReplyTo` outside the discussion;
  ///   ``FossilWorkspaceError/proposalNotFound(_:)``;
  ///   ``FossilForumError/answerLost(request:reason:mayAwaitModeration:)`` when the submission
  ///   got no answer (the post may exist). Once the server made the post:
  ///   ``FossilForumError/postedAs(_:expected:post:)`` when it made it as someone else (a
  ///   login that lapsed meanwhile), ``FossilForumError/notReadBack(post:reason:)`` when it
  ///   cannot be read back — the post exists either way: do not send it again.
  @discardableResult
  public func discuss(_ text: String, on proposalID: String, inReplyTo: String? = nil)
    async throws -> FossilForumPost
  {
    guard !text.allSatisfy(\.isWhitespace) else { throw FossilForumError.emptyPost }
    let person: FossilUser
    do {
      person = try await session.currentUser()
    } catch HTTPSessionError.signedOut {
      throw FossilForumError.signInRequired
    }
    return try await serialized {
      let clone = self.clone
      try await clone.pull()
      let branch = try await self.existingProposal(proposalID, in: clone)
      let before = try await Self.discussion(of: branch, in: clone)
      let posted: String
      let repliedTo: String?
      do {
        (posted, repliedTo) = try await self.submit(
          text, to: before, of: branch, inReplyTo: inReplyTo, in: clone)
      } catch FossilForumError.answerLost(let request, let reason, _) {
        throw FossilForumError.answerLost(
          request: request, reason: reason,
          mayAwaitModeration: !person.capabilities.mayPostUnmoderated)
      }
      // The server made the post: from here on, no failure may read as "not posted".
      let made: FossilForumPost?
      do {
        try await clone.pull()
        made = try await clone.forumPosts().first { $0.id.hasPrefix(posted) }
      } catch {
        throw FossilForumError.notReadBack(post: posted, reason: "\(error)")
      }
      if let made {
        // Fossil's forms check the Referer, not the login: one that lapsed meanwhile posts as
        // `anonymous` when the forum lets anyone post.
        guard made.author == person.name else {
          throw FossilForumError.postedAs(made.author, expected: person.name, post: made.id)
        }
        return made
      }
      // Fossil syncs no post a moderator has not approved yet.
      guard !person.capabilities.mayPostUnmoderated else {
        throw FossilForumError.notReadBack(
          post: posted,
          reason: "a pull after it does not bring it, and the person's posts need no moderator")
      }
      return FossilForumPost(
        id: posted, thread: before.threads.first ?? posted, inReplyTo: repliedTo,
        author: person.name, date: Date(), title: nil, text: text,
        mimetype: Self.postMimetype, isAwaitingModeration: true)
    }
  }

  /// Posts `text` through Fossil's editor: a reply into `discussion` (to `inReplyTo`, or its
  /// newest post), or the first post of a new thread about `branch`. Answers the post's hash as
  /// the server abbreviated it, and the post it replies to.
  private func submit(
    _ text: String, to discussion: FossilDiscussion, of branch: String, inReplyTo: String?,
    in clone: FossilClone
  ) async throws -> (posted: String, repliedTo: String?) {
    let editor = FossilForumEditor(session: session)
    let content = [
      HTTPBody.FormField("mimetype", Self.postMimetype), HTTPBody.FormField("content", text),
      HTTPBody.FormField("submit", "Submit"),
    ]
    guard let thread = discussion.threads.first else {
      if let inReplyTo { throw FossilForumError.postNotFound(inReplyTo) }
      let title = try await threadTitle(of: branch, in: clone)
      let form = try await editor.open("/forumnew", action: "/forume1")
      return (try await editor.submit(form, fields: [.init("title", title)] + content), nil)
    }
    let target = try Self.post(inReplyTo, in: discussion) ?? discussion.posts.last?.id ?? thread
    let form = try await editor.open(
      "/forumedit",
      query: [URLQueryItem(name: "fpid", value: target), .init(name: "reply", value: nil)],
      action: "/forume2")
    let posted = try await editor.submit(
      form, fields: [HTTPBody.FormField("fpid", target), .init("reply", "1")] + content)
    return (posted, target)
  }

  /// The mimetype of the posts this client makes: the forum's own default.
  static let postMimetype = "text/x-markdown"

  /// The branch of proposal `proposalID`, which the clone must hold.
  private func existingProposal(_ proposalID: String, in clone: FossilClone) async throws
    -> String
  {
    let branch = proposalBranch(named: proposalID)
    guard branch.hasPrefix(configuration.proposalPrefix),
      try await clone.head(of: branch) != nil
    else { throw FossilWorkspaceError.proposalNotFound(proposalID) }
    return branch
  }

  /// The title of a new discussion of proposal `branch`: its title, shortened, and the branch
  /// in brackets (what finds the thread again).
  private func threadTitle(of branch: String, in clone: FossilClone) async throws -> String {
    let title =
      try await clone.head(of: branch).flatMap { self.proposal(branch: branch, head: $0) }
      .map(\.title) ?? ""
    let shown = title.count > 60 ? title.prefix(59) + "…" : Substring(title)
    return (shown.isEmpty ? "Review" : "Review of “\(shown)”") + " " + Self.threadMarker(branch)
  }

  /// What a discussion's title ends with: `[<branch>]`.
  static func threadMarker(_ branch: String) -> String { "[\(branch)]" }

  /// The discussion of proposal `branch` among the clone's forum posts.
  static func discussion(of branch: String, in clone: FossilClone) async throws
    -> FossilDiscussion
  {
    let posts = try await clone.forumPosts()
    let marker = threadMarker(branch)
    // A thread's first post, in its newest edit: it answers nothing, and names its thread.
    let threads = posts.filter { $0.inReplyTo == nil && $0.title?.hasSuffix(marker) == true }
      .map(\.thread)
    let inThreads = Set(threads)
    return FossilDiscussion(
      proposal: branch, threads: threads, posts: posts.filter { inThreads.contains($0.thread) })
  }

  /// The post of `discussion` that `id` (or a prefix of it) names; `nil` for `nil`.
  private static func post(_ id: String?, in discussion: FossilDiscussion) throws -> String? {
    guard let id else { return nil }
    let matches = discussion.posts.filter { $0.id.hasPrefix(id.lowercased()) }
    guard id.count >= 4, matches.count == 1, let match = matches.first else {
      throw FossilForumError.postNotFound(id)
    }
    return match.id
  }
}
