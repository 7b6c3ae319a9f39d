import DemoHTTPProtocol
import Foundation
import HTTPMessages
import LoopbackHTTPServer

/// The live channel: server-sent announcements.
extension Endpoints {
  /// `GET /v1/events`: every announcement after `Last-Event-ID` (none: from now on), then each
  /// new one as it is made, as `id: N`, `event: proposed|merged`, `data: <Announcement JSON>`.
  /// A comment every heartbeat keeps an idle stream alive; the stream ends when its session
  /// does (the client's reconnection then meets a 401).
  func events(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    let after: Int?
    if let header = request.headers["Last-Event-ID"] {
      guard let id = Int(header.trimmingCharacters(in: .whitespaces)), id >= 0 else {
        return .problem(400, .invalidRequest, "Invalid Last-Event-ID", "Last-Event-ID is a number")
      }
      after = id
    } else {
      after = nil
    }
    return await asSession(request) { caller in
      let handle = caller.session.handle
      let heartbeat = configuration.heartbeat
      let retry = configuration.reconnectionTime
      return .eventStream { [self] writer in
        let subscription = announcements.subscribe(after: after)
        defer { subscription.end() }
        try? writer.advise(retry: retry)
        for entry in subscription.backlog {
          guard (try? writer.send(Self.event(entry))) != nil else { return }
        }
        await withTaskGroup(of: Void.self) { group in
          group.addTask {
            for await entry in subscription.upcoming {
              guard self.sessions.isLive(handle), (try? writer.send(Self.event(entry))) != nil
              else { return }
            }
          }
          group.addTask {
            while (try? await Task.sleep(for: heartbeat)) != nil {
              guard self.sessions.isLive(handle), (try? writer.comment("keep-alive")) != nil
              else { return }
            }
          }
          await group.next()
          group.cancelAll()
        }
      }
    }
  }

  static func event(_ entry: AnnouncementLog.Entry) -> ServerSentEvent {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = (try? encoder.encode(entry.announcement)).map { String(decoding: $0, as: UTF8.self) }
    return ServerSentEvent(
      type: entry.announcement.kind.rawValue, data: data ?? "{}", id: String(entry.id))
  }
}
