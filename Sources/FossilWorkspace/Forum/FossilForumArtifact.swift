import Foundation

/// The cards of a forum post artifact that a reader needs (Fossil's file format: `H` the
/// thread's title, `N` the mimetype, `U` the user, `W <size>` followed by exactly `size` bytes
/// of text). The links between posts (`G`, `I`, `P`) are read from the repository's
/// `forumpost` table instead, where Fossil resolved them.
struct FossilForumArtifact: Hashable, Sendable {
  var title: String?
  var mimetype: String
  var user: String
  var text: String

  /// Fossil's mimetype for a post without an `N` card.
  static let defaultMimetype = "text/x-fossil-wiki"

  /// Reads `artifact`.
  ///
  /// - Throws: ``FossilError/unexpectedAnswer(request:reason:)`` when it is not a forum post:
  ///   no `U` or `W` card, or a `W` card whose size runs past the artifact.
  static func parse(_ artifact: Data, source: String) throws -> FossilForumArtifact {
    let bytes = Array(artifact)
    var title: String?
    var mimetype = defaultMimetype
    var user: String?
    var text: String?
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let line = String(decoding: bytes[start..<end], as: UTF8.self)
      start = end + 1
      let (card, value) = (line.prefix(2), line.dropFirst(2))
      switch card {
      case "H ": title = FossilManifest.decode(value)
      case "N ": mimetype = FossilManifest.decode(value)
      case "U ": user = FossilManifest.decode(value)
      case "W ":
        guard let size = Int(value), size >= 0, start + size <= bytes.count else {
          throw malformed(source, "its W card's size does not fit the artifact")
        }
        text = String(decoding: bytes[start..<(start + size)], as: UTF8.self)
        start += size + 1
      default: continue
      }
    }
    guard let user, let text else { throw malformed(source, "it is not a forum post") }
    return FossilForumArtifact(title: title, mimetype: mimetype, user: user, text: text)
  }

  private static func malformed(_ source: String, _ reason: String) -> FossilError {
    .unexpectedAnswer(request: source, reason: reason)
  }
}
