import Foundation

extension FossilClone {
  /// Every forum post the clone holds (the server's, as of the last pull; posts held for
  /// moderation are not synced), each as its newest edit, oldest first. One `fossil sql` reads
  /// them all, artifacts included (`content()`, as hex: a post's bytes need not be UTF-8).
  func forumPosts() async throws -> [FossilForumPost] {
    let tables: [TableName] = try await query(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'forumpost'")
    // Fossil creates the table when the repository receives its first post.
    guard !tables.isEmpty else { return [] }
    let rows: [PostRow] = try await query(
      """
      SELECT b.uuid AS uuid, r.uuid AS thread, i.uuid AS inReplyTo, f.fmtime AS julianDay,
        hex(content(b.uuid)) AS artifact
      FROM forumpost f JOIN blob b ON b.rid = f.fpid JOIN blob r ON r.rid = f.froot
        LEFT JOIN blob i ON i.rid = f.firt
      WHERE f.fpid NOT IN (SELECT fprev FROM forumpost WHERE fprev IS NOT NULL)
      ORDER BY f.fmtime, b.uuid
      """)
    return try rows.map { row in
      let source = "fossil sql (forum post \(row.uuid.prefix(10)))"
      guard let bytes = Data(hexadecimal: row.artifact) else {
        throw FossilError.unexpectedAnswer(request: source, reason: "its content is not hex")
      }
      let artifact = try FossilForumArtifact.parse(bytes, source: source)
      return FossilForumPost(
        id: row.uuid, thread: row.thread, inReplyTo: row.inReplyTo, author: artifact.user,
        date: Self.date(julianDay: row.julianDay), title: artifact.title, text: artifact.text,
        mimetype: artifact.mimetype)
    }
  }

  /// A Julian day number (Fossil's time stamps) as a date.
  static func date(julianDay: Double) -> Date {
    Date(timeIntervalSince1970: (julianDay - 2_440_587.5) * 86_400)
  }

  private struct TableName: Decodable {
    var name: String
  }

  private struct PostRow: Decodable {
    var uuid: String
    var thread: String
    var inReplyTo: String?
    var julianDay: Double
    var artifact: String
  }
}
