/// One event of a `text/event-stream`, as a client's parser dispatches it
/// (`ServerSentEventParser` in WorkspaceHTTP) and a server writes it.
///
/// ```swift
/// for try await event in session.events(.get("/live")) {
///   if event.type == "merged" { print("merged:", event.data) }
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
  /// The `event:` field; `"message"` when the event named none.
  public var type: String
  /// The `data:` lines joined with line feeds.
  public var data: String
  /// The last event ID in force when the event was dispatched (its own `id:` or an earlier
  /// one); `nil` when none was ever set. A reconnection sends it as `Last-Event-ID`.
  public var id: String?

  public init(type: String = "message", data: String, id: String? = nil) {
    self.type = type
    self.data = data
    self.id = id
  }

  public var description: String {
    "ServerSentEvent(\(type), id: \(id ?? "none"), \(data.utf8.count) bytes)"
  }
}
