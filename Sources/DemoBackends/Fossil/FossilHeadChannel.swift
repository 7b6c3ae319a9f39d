import ComposableCore
import ComposableWorkspace
import DemoBackendInterface
import FossilWorkspace

/// The Fossil backend's ``LiveChannel``. Fossil 2.21 has no server-sent events, so it watches
/// a branch's newest check-in with a ``FossilHeadWatcher`` (polling on the `\.clock`
/// dependency, backing off after failures) and announces the head it sees — when the watch
/// starts, then each time it changes — as ``BackendAnnouncement/branchHead(_:)``. It sees the
/// head, not who moved it or why (a merge, another person's check-in): the host says "refresh
/// available" when it is not the workspace's baseline, nothing more.
///
/// Polling starts when the channel is made (the look is a public call: it never ends the
/// session) and stops at ``close()``.
final class FossilHeadChannel: LiveChannel {
  private let inbox = AnnouncementInbox()
  private let watching: LockIsolated<Task<Void, Never>?>
  let source: String

  /// Watches `branch` on the server `session` speaks to, looking every `interval`.
  init(session: FossilSession, branch: BranchName, interval: Duration) {
    let updates = FossilHeadWatcher(session: session, interval: interval).updates(of: branch)
    let inbox = inbox
    source =
      "seen by polling the head of \(branch) every \(interval) (Fossil 2.21 has no "
      + "server-sent events), not announced by the server"
    watching = LockIsolated(
      Task {
        // The watcher reports a head when it is first seen and when it changes.
        for await case .head(let revision) in updates {
          inbox.append(.branchHead(WorkspaceBranchReference(branch: branch, revision: revision)))
        }
      })
  }

  func drain() -> [BackendAnnouncement] {
    inbox.drain()
  }

  func wait(
    timeout: Duration, for match: @escaping @Sendable (BackendAnnouncement) -> Bool
  ) async -> BackendAnnouncement? {
    await inbox.wait(timeout: timeout, for: match)
  }

  func close() async {
    let task = watching.withValue { task in
      defer { task = nil }
      return task
    }
    task?.cancel()
    await task?.value
  }
}
