import ComposableCore
import DemoHTTPProtocol
import Foundation

/// Every announcement the server made, numbered from 1, and the event streams following them.
///
/// A stream subscribes ``after`` the last id its client saw (`Last-Event-ID`): it gets what it
/// missed, then every new announcement, each exactly once — the backlog and the subscription
/// are taken under one lock, so nothing falls between them.
final class AnnouncementLog: Sendable {
  /// One numbered announcement.
  struct Entry: Sendable {
    let id: Int
    let announcement: DemoAPI.Announcement
  }

  /// A stream's view: what it missed, and what comes next.
  struct Subscription: Sendable {
    let backlog: [Entry]
    let upcoming: AsyncStream<Entry>
    fileprivate let cancel: @Sendable () -> Void

    /// Stops delivering to ``upcoming``.
    func end() { cancel() }
  }

  private struct State {
    var entries: [Entry] = []
    var followers: [UUID: AsyncStream<Entry>.Continuation] = [:]
  }

  private let state = LockIsolated(State())

  /// The newest id (0 before the first announcement).
  var lastID: Int { state.withValue { $0.entries.last?.id ?? 0 } }

  /// Numbers `announcement` and hands it to every follower.
  func append(_ announcement: DemoAPI.Announcement) {
    state.withValue { state in
      let entry = Entry(id: state.entries.count + 1, announcement: announcement)
      state.entries.append(entry)
      for follower in state.followers.values { follower.yield(entry) }
    }
  }

  /// Follows the log after id `after` (`nil`: from now on).
  func subscribe(after: Int?) -> Subscription {
    let (stream, continuation) = AsyncStream.makeStream(of: Entry.self)
    let id = UUID()
    let backlog = state.withValue { state -> [Entry] in
      state.followers[id] = continuation
      guard let after else { return [] }
      return Array(state.entries.drop { $0.id <= after })
    }
    let remove: @Sendable () -> Void = { [state] in
      let follower = state.withValue { $0.followers.removeValue(forKey: id) }
      follower?.finish()
    }
    continuation.onTermination = { _ in remove() }
    return Subscription(backlog: backlog, upcoming: stream, cancel: remove)
  }
}
