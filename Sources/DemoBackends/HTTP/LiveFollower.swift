import ComposableCore
import ComposableWorkspace
import DemoBackendInterface
import DemoHTTPProtocol
import Foundation
import WorkspaceHTTP

/// The HTTP backend's ``LiveChannel``: follows the server's event stream (`GET /v1/events`)
/// while the session is signed in, and tells the host when the server ends the session.
///
/// Each sign-in sets where to resume (``resume(after:)``, the server's newest announcement
/// at that moment), so nothing announced after it is missed; a dropped connection reconnects
/// with `Last-Event-ID` (the layer's job), so nothing is lost or delivered twice. When the
/// session ends by a 401 (not by the app signing out), one ``BackendAnnouncement/sessionEnded``
/// is announced — read from the session's status when the host drains or waits, so a command
/// that met the 401 hears it at once; the follower then waits for the next sign-in without
/// sending anything.
final class LiveFollower: InboxLiveChannel {
  private let session: HTTPSession
  private let configuration: HTTPBackendConfiguration
  let inbox = AnnouncementInbox()
  private let cursor = LockIsolated<String?>(nil)
  private let follower = LockIsolated<Task<Void, Never>?>(nil)
  private let closed = LockIsolated(false)

  init(session: HTTPSession, configuration: HTTPBackendConfiguration) {
    self.session = session
    self.configuration = configuration
  }

  /// A sign-in began: the stream resumes after announcement `id`. Starts following on the
  /// first call.
  func resume(after id: String) {
    cursor.setValue(id)
    inbox.sessionBegan()
    guard !closed.current else { return }
    follower.withValue { task in
      guard task == nil else { return }
      task = Task { [session, inbox, cursor, configuration] in
        await Self.follow(session, configuration, inbox, cursor)
      }
    }
  }

  var observedSession: ObservedSession {
    switch session.status {
    case .signedIn: .signedIn
    case .signedOut(let end?) where end != .signedOut: .endedByServer(reason: end.description)
    case .signedOut: .signedOutByApp
    }
  }

  var source: String { "announced by the server on its event stream (SSE), not polled" }

  func close() async {
    closed.setValue(true)
    let task = follower.withValue { task in
      defer { task = nil }
      return task
    }
    task?.cancel()
    await task?.value
  }

  /// Follows the stream whenever the session is signed in, until cancelled.
  private static func follow(
    _ session: HTTPSession, _ configuration: HTTPBackendConfiguration,
    _ inbox: AnnouncementInbox, _ cursor: LockIsolated<String?>
  ) async {
    for await status in session.statusUpdates() where status.isSignedIn {
      await stream(session, configuration, inbox, cursor)
    }
  }

  /// One signed-in stretch: the event stream until the session ends (or the stream gives up).
  private static func stream(
    _ session: HTTPSession, _ configuration: HTTPBackendConfiguration,
    _ inbox: AnnouncementInbox, _ cursor: LockIsolated<String?>
  ) async {
    let options = EventStreamOptions(
      lastEventID: cursor.current, reconnect: configuration.liveReconnect,
      idleTimeout: configuration.liveIdleTimeout)
    do {
      for try await event in session.events(.get(DemoAPI.events), options: options) {
        if let id = event.id { cursor.setValue(id) }
        if let notice = notice(event) { inbox.append(.notice(notice)) }
      }
    } catch {
      // Signed out: the next sign-in resumes. Anything else (not an event stream): the
      // channel stays quiet until then too; the application works without it.
      configuration.logger?.log("live channel stopped: \(error)")
    }
  }

  /// The notice an event carries; `nil` for an event of another kind.
  static func notice(_ event: ServerSentEvent) -> LiveNotice? {
    guard let id = event.id,
      let body = try? JSONDecoder().decode(DemoAPI.Announcement.self, from: Data(event.data.utf8))
    else { return nil }
    let kind: LiveNotice.Kind =
      switch body.kind {
      case .proposed: .proposed
      case .merged: .merged
      }
    return LiveNotice(
      id: id, kind: kind, proposal: body.proposal, title: body.title, author: body.author,
      reference: WorkspaceBranchReference(branch: BranchName(body.branch), revision: body.revision))
  }
}
