import ComposableCore
import ComposableWorkspace
import DemoBackendInterface
import FossilWorkspace
import WorkspaceHTTP

/// The Fossil backend's ``LiveChannel``: what it learns about the server between commands.
///
/// - **The head.** Fossil 2.21 has no server-sent events, so the channel watches a branch's
///   newest check-in with a ``FossilHeadWatcher`` (polling on the `\.clock` dependency, backing
///   off after failures) and announces the head it sees — when the watch starts, then each time
///   it changes — as ``BackendAnnouncement/branchHead(_:)``. It sees the head, not who moved it
///   or why (a merge, another person's check-in): the host says "refresh available" when it is
///   not the workspace's baseline, nothing more. Polling runs while the session is signed in
///   (the look is a public call: it never ends the session) and stops at ``close()``.
/// - **The session's end.** When the server stopped honouring the login (a logout elsewhere,
///   Fossil keeping one login per user; an expiry), the session ended the Fossil way on the
///   call that met it; the next drain or wait announces
///   ``BackendAnnouncement/sessionEnded(reason:)`` once — never the app's own sign-out.
final class FossilLiveChannel: InboxLiveChannel {
  private let session: FossilSession
  let inbox = AnnouncementInbox()
  private let watching: LockIsolated<Task<Void, Never>?>
  let source: String

  /// Watches `branch` on the server `session` speaks to while someone is signed in, looking
  /// every `interval` at most (less often while nothing changes, up to `idleMaximum`).
  init(
    session: FossilSession, branch: BranchName, interval: Duration, idleMaximum: Duration
  ) {
    self.session = session
    let watcher = FossilHeadWatcher(session: session, interval: interval, idleMaximum: idleMaximum)
    let inbox = inbox
    source =
      "seen by polling the head of \(branch) while signed in (every \(interval), up to every "
      + "\(idleMaximum) while nothing changes: Fossil 2.21 has no server-sent events), not "
      + "announced by the server"
    watching = LockIsolated(
      Task {
        // No look before sign-in, none after the session ends: an idle, signed-out client
        // costs the server nothing.
        var statuses = session.statusUpdates().makeAsyncIterator()
        while let status = await statuses.next() {
          guard status.isSignedIn else { continue }
          let watch = Task {
            // The watcher reports a head when it is first seen and when it changes.
            for await case .head(let revision) in watcher.updates(of: branch) {
              inbox.append(
                .branchHead(WorkspaceBranchReference(branch: branch, revision: revision)))
            }
          }
          while let next = await statuses.next(), next.isSignedIn {}
          watch.cancel()
          await watch.value
        }
      })
  }

  func close() async {
    let task = watching.withValue { task in
      defer { task = nil }
      return task
    }
    task?.cancel()
    await task?.value
  }

  var observedSession: ObservedSession {
    switch session.status {
    case .signedIn: .signedIn
    case .signedOut(let end?) where end != .signedOut: .endedByServer(reason: end.description)
    case .signedOut: .signedOutByApp
    }
  }

}
