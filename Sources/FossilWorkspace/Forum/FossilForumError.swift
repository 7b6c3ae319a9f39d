/// Why a post could not be made on a Fossil forum. Messages name the request and the user,
/// never a cookie, token or the post's text.
public enum FossilForumError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The signed-in user may not post on this repository's forum: it lacks the forum
  /// capabilities (`3`/`4`), or the repository gives them to no one. Distinct from a sign-in
  /// problem: signing in again does not help, the repository's administrator must grant them.
  case notPermittedToPost(user: String)
  /// Posting needs a signed-in person (a post is made as them).
  case signInRequired
  /// The text is empty or only white space (Fossil ignores such a post).
  case emptyPost
  /// The post to reply to is not in the proposal's discussion.
  case postNotFound(String)
  /// The server answered the submission with its editor again instead of making the post
  /// (its CSRF defence, or a form it did not accept): nothing was posted.
  case notAccepted(request: String, reason: String)
  /// The submission was sent but its answer never came (a broken connection, a timeout, a
  /// gateway's error): the server may have made the post or not. The discussion shows which —
  /// unless the person's posts wait for a moderator (`mayAwaitModeration`), which the
  /// discussion does not list until approved: then it must not be sent again.
  case answerLost(request: String, reason: String, mayAwaitModeration: Bool)
  /// The server made post `post`, but as `author` instead of the signed-in person: the login
  /// lapsed between the editor and the submission, and the forum lets anyone post. The post
  /// is on the forum (a moderator can remove it).
  case postedAs(_ author: String, expected: String, post: String)
  /// The server made post `post`, but it could not be read back: it is on the forum (the
  /// discussion shows it once the repository can be read); sending it again would post it
  /// twice.
  case notReadBack(post: String, reason: String)

  public var description: String {
    switch self {
    case .notPermittedToPost(let user):
      "\(user) is not permitted to post here: the repository's forum does not let this user "
        + "post (its administrator grants the forum capabilities 3 or 4)."
    case .signInRequired:
      "Posting to the forum needs a signed-in person: sign in first."
    case .emptyPost:
      "The post is empty: there is nothing to send."
    case .postNotFound(let id):
      "There is no post \(id) in this discussion."
    case .notAccepted(let request, let reason):
      "\(request) did not make the post: \(reason). Nothing was posted."
    case .answerLost(let request, let reason, let mayAwaitModeration):
      "\(request) got no answer (\(reason)): the post may or may not have been made. "
        + (mayAwaitModeration
          ? "It may be waiting for a moderator, where the discussion does not show it: do not "
            + "send it again."
          : "The discussion shows which; send it again only if it is not there.")
    case .postedAs(let author, let expected, let post):
      "The server made post \(post.prefix(10)) as \(author), not as \(expected): the login "
        + "lapsed while posting. The post is on the forum; a moderator can remove it."
    case .notReadBack(let post, let reason):
      "The server made post \(post.prefix(10)), but it cannot be read back (\(reason)). It is "
        + "on the forum: do not send it again."
    }
  }
}
