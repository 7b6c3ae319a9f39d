import DemoBackendInterface
import WorkspaceDemoFeature

/// What the backend announced on its own (a demo server's live channel, a Fossil server's
/// watched head).
extension CommandExecutor {
  /// Applies and describes what the backend announced since the last call: a session the
  /// server ended signs the application out (said once, as the backend announces it once);
  /// live notices, and a watched head that is not the workspace's baseline, become `live: …`
  /// lines when ``reportsLiveNotices`` is on.
  func announcements() async -> CommandOutcome {
    var outcome = CommandOutcome()
    for announcement in host.live?.drain() ?? [] {
      switch announcement {
      case .notice(let notice):
        if reportsLiveNotices { outcome.info("live: \(notice)") }
      case .branchHead(let head):
        let baseline = host.session?.baseline
        if reportsLiveNotices, let line = Describe.branchHead(head, baseline: baseline) {
          outcome.info("live: \(line)")
        }
      case .sessionEnded(let reason):
        guard let session = state.session else { continue }
        await host.send(.signOut)
        outcome.info(
          "the server ended \(session.username)'s session (\(reason)); signed out, sign in again")
      }
    }
    return outcome
  }
}
