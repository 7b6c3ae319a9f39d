import ComposableCore
import Foundation

/// The announcements a backend made, kept in order: drained once each by the host, and
/// awaitable (boundedly) one by one. The store behind a ``LiveChannel``: the backend appends,
/// the channel's `drain` and `wait` read.
///
/// ```swift
/// let inbox = AnnouncementInbox()
/// inbox.append(.branchHead(WorkspaceBranchReference(branch: "published", revision: head)))
/// inbox.drain()   // [.branchHead(published@…)], and [] on the next call
/// ```
public final class AnnouncementInbox: Sendable {
  private struct Waiter {
    let match: @Sendable (BackendAnnouncement) -> Bool
    let continuation: CheckedContinuation<BackendAnnouncement?, Never>
  }

  private struct State {
    var all: [BackendAnnouncement] = []
    var drained = 0
    var waiters: [UUID: Waiter] = [:]
    /// Whether the current session's end was announced (reset while signed in).
    var endAnnounced = false
  }

  private let state = LockIsolated(State())

  public init() {}

  /// Keeps `announcement` and wakes the waits it matches.
  public func append(_ announcement: BackendAnnouncement) {
    let woken = state.withValue { state -> [Waiter] in
      state.all.append(announcement)
      let matching = state.waiters.filter { $0.value.match(announcement) }
      for id in matching.keys { state.waiters[id] = nil }
      return Array(matching.values)
    }
    for waiter in woken { waiter.continuation.resume(returning: announcement) }
  }

  /// Announces ``BackendAnnouncement/sessionEnded(reason:)`` once per session the server ended,
  /// as `session` shows it now; a session seen signed in (or begun, ``sessionBegan()``) may be
  /// announced again when it ends. The app's own sign-out is no news.
  public func note(_ session: ObservedSession) {
    let reason = state.withValue { state -> String? in
      switch session {
      case .signedIn, .signedOutByApp:
        if session == .signedIn { state.endAnnounced = false }
        return nil
      case .endedByServer(let reason):
        guard !state.endAnnounced else { return nil }
        state.endAnnounced = true
        return reason
      }
    }
    if let reason { append(.sessionEnded(reason: reason)) }
  }

  /// A new session began: its end is news again.
  public func sessionBegan() {
    state.withValue { $0.endAnnounced = false }
  }

  /// The announcements appended since the previous call, oldest first.
  public func drain() -> [BackendAnnouncement] {
    state.withValue { state in
      defer { state.drained = state.all.count }
      return Array(state.all[state.drained...])
    }
  }

  /// The first announcement, drained or not, that `match` accepts — at once if one was
  /// appended already, else as soon as it is — or `nil` after `timeout`.
  public func wait(
    timeout: Duration, for match: @escaping @Sendable (BackendAnnouncement) -> Bool
  ) async -> BackendAnnouncement? {
    let id = UUID()
    return await withTaskGroup(of: BackendAnnouncement?.self) { group in
      group.addTask {
        await withTaskCancellationHandler {
          await withCheckedContinuation { continuation in
            let found = self.state.withValue { state -> BackendAnnouncement?? in
              if let found = state.all.first(where: match) { return .some(found) }
              if Task.isCancelled { return .some(nil) }
              state.waiters[id] = Waiter(match: match, continuation: continuation)
              return nil
            }
            if let found { continuation.resume(returning: found) }
          }
        } onCancel: {
          let waiter = self.state.withValue { $0.waiters.removeValue(forKey: id) }
          waiter?.continuation.resume(returning: nil)
        }
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }
}
