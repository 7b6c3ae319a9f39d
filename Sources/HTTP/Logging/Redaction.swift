import Foundation

/// Turns requests and responses into log text that carries no secret.
enum Redaction {
  static let placeholder = "<redacted>"

  /// Headers whose values are harmless and useful in a log; every other value is redacted.
  private static let readableHeaders: Set<String> = [
    "accept", "accept-encoding", "allow", "cache-control", "connection", "content-encoding",
    "content-length", "content-type", "date", "etag", "idempotency-key", "last-event-id",
    "retry-after", "server", "transfer-encoding", "user-agent", "vary",
  ]

  /// `name: value` pairs joined by ` · `, secrets replaced by ``placeholder``.
  static func headers(_ headers: some Sequence<(name: String, value: String)>) -> String {
    headers.map { name, value in "\(name): \(headerValue(name: name, value: value))" }
      .joined(separator: " · ")
  }

  static func headerValue(name: String, value: String) -> String {
    switch name.lowercased() {
    case let readable where readableHeaders.contains(readable):
      return value
    case "cookie":
      return value.split(separator: ";").map { pair in
        let name = pair.split(separator: "=", maxSplits: 1).first ?? ""
        return "\(name.trimmingCharacters(in: .whitespaces))=\(placeholder)"
      }.joined(separator: "; ")
    case "set-cookie":
      return SetCookieLine.splitCombined(value).map(setCookie).joined(separator: ", ")
    case "location", "referer", "content-location":
      return URL(string: value).map(url) ?? placeholder
    default:
      return placeholder
    }
  }

  /// `name=<redacted>` and the attributes other than the value.
  private static func setCookie(_ line: String) -> String {
    var parts = line.split(separator: ";", omittingEmptySubsequences: false)
    guard !parts.isEmpty else { return placeholder }
    let name = parts.removeFirst().split(separator: "=", maxSplits: 1).first ?? ""
    return
      ([
        "\(name.trimmingCharacters(in: .whitespaces))=\(placeholder)"
      ] + parts.map { $0.trimmingCharacters(in: .whitespaces) }).joined(separator: "; ")
  }

  /// The URL without user, password or fragment, every query value replaced.
  static func url(_ url: URL) -> String {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      return placeholder
    }
    var text = ""
    if let scheme = components.scheme { text += "\(scheme)://" }
    if let host = components.percentEncodedHost { text += host }
    if let port = components.port { text += ":\(port)" }
    return text + pathAndQuery(components)
  }

  /// The path and query of `url`, every query value replaced: `/v1/me?token=<redacted>`.
  static func pathAndQuery(_ url: URL) -> String {
    URLComponents(url: url, resolvingAgainstBaseURL: true).map(pathAndQuery) ?? placeholder
  }

  private static func pathAndQuery(_ components: URLComponents) -> String {
    var text = components.percentEncodedPath
    if let items = components.percentEncodedQueryItems, !items.isEmpty {
      text += "?" + items.map { "\($0.name)=\(placeholder)" }.joined(separator: "&")
    }
    return text
  }
}
