import ComposableWorkspace

/// What a backend tells its host on its own, between the host's commands: what its server
/// announced on a live channel (or what the backend saw by watching it), and that the server
/// ended the session.
///
/// The host drains it after every command (and may wait for one announcement):
///
/// ```swift
/// for announcement in live.drain() { show(announcement) }
/// let merged = await live.wait(timeout: .seconds(10)) { announcement in
///   guard case .notice(let notice) = announcement else { return false }
///   return notice.kind == .merged && notice.proposal == "P1"
/// }
/// await live.close()   // at the end of the run: the channel's connection is closed
/// ```
public protocol LiveChannel: Sendable {
  /// The announcements made since the previous call, oldest first (each is drained once).
  func drain() -> [BackendAnnouncement]
  /// The first announcement, drained or not, that `match` accepts — at once if one was made
  /// already, else as soon as it is — or `nil` after `timeout`.
  func wait(
    timeout: Duration, for match: @escaping @Sendable (BackendAnnouncement) -> Bool
  ) async -> BackendAnnouncement?
  /// Stops following the server (its connection is closed, its polling ends); idempotent.
  func close() async
  /// How the channel learns of changes, as people are told it: `announced by the server on
  /// its event stream (SSE), not polled`, `seen by polling the server…`.
  var source: String { get }
}

/// A ``LiveChannel`` whose announcements wait in an ``AnnouncementInbox`` and that announces,
/// once per session, that the server ended it — noticed from ``observedSession`` whenever the
/// host drains or waits, so a command that met the end hears it at once.
public protocol InboxLiveChannel: LiveChannel {
  /// Where the channel's announcements wait.
  var inbox: AnnouncementInbox { get }
  /// The session as the channel's connection shows it now.
  var observedSession: ObservedSession { get }
}

extension InboxLiveChannel {
  public func drain() -> [BackendAnnouncement] {
    inbox.note(observedSession)
    return inbox.drain()
  }

  public func wait(
    timeout: Duration, for match: @escaping @Sendable (BackendAnnouncement) -> Bool
  ) async -> BackendAnnouncement? {
    inbox.note(observedSession)
    return await inbox.wait(timeout: timeout, for: match)
  }
}

/// A session as a live channel sees it.
public enum ObservedSession: Sendable, Equatable {
  case signedIn
  /// Never signed in, or the app signed out (no news).
  case signedOutByApp
  /// The server ended it (a 401, a logout elsewhere, an expiry), for `reason`.
  case endedByServer(reason: String)
}

/// One thing a backend announced.
public enum BackendAnnouncement: Sendable, Equatable {
  /// The server announced a change on its live channel.
  case notice(LiveNotice)
  /// A branch's newest revision as the backend saw it by watching a server that has no live
  /// channel: first when the watch starts, then each time it changes. Who moved it, and why,
  /// is not known; the host compares it with the workspace's baseline ("refresh available").
  case branchHead(WorkspaceBranchReference)
  /// The server ended the session (a session call answered 401): the application must treat
  /// the person as signed out. Announced once per session.
  case sessionEnded(reason: String)
}

/// A change the server announced: a proposal was created, or one was merged.
public struct LiveNotice: Sendable, Equatable, CustomStringConvertible {
  public enum Kind: Sendable, Equatable {
    case proposed
    case merged
  }

  /// The channel's id of the announcement (what a reconnection resumes after).
  public var id: String
  public var kind: Kind
  /// The proposal's record id.
  public var proposal: String
  public var title: String
  public var author: String
  /// For `proposed` the revision it targets; for `merged` the branch's new head.
  public var reference: WorkspaceBranchReference

  public init(
    id: String, kind: Kind, proposal: String, title: String, author: String,
    reference: WorkspaceBranchReference
  ) {
    self.id = id
    self.kind = kind
    self.proposal = proposal
    self.title = title
    self.author = author
    self.reference = reference
  }

  /// `P1 merged into published@r2 — refresh available`, `P2 “Rename” proposed by ada against
  /// published@r1`.
  public var description: String {
    switch kind {
    case .merged: "\(proposal) merged into \(reference) — refresh available"
    case .proposed: "\(proposal) “\(title)” proposed by \(author) against \(reference)"
    }
  }
}
