import Foundation

/// A check-in manifest's file list, read from its raw artifact (`F` cards, and the `B` card of
/// a delta manifest). Other cards are not needed and are skipped; so are the lines around a
/// clear-signed manifest's cards.
///
/// ```text
/// C Proposal\sone
/// F a.txt a8009a7a…
/// F tools/run.sh 91c2… x
/// P 1e355a99…
/// ```
struct FossilManifest: Equatable, Sendable {
  /// One file of a check-in.
  struct Entry: Hashable, Sendable, Codable {
    /// The artifact hash of its content.
    var hash: String
    /// Whether it is executable (`x`); a symbolic link (`l`) is kept as a plain file.
    var executable: Bool
  }

  /// The check-in this delta manifest is relative to (`B`), or `nil` for a full one.
  var baseline: String?
  /// The files by path; in a delta manifest, `nil` marks a file removed from the baseline.
  var files: [String: Entry?]

  /// Parses a manifest's raw bytes.
  ///
  /// - Throws: ``FossilError/unexpectedAnswer(request:reason:)`` when it is not a manifest, or
  ///   names a file by a path that could leave the working copy (absolute, `..`, empty parts).
  static func parse(_ data: Data) throws -> FossilManifest {
    guard let text = String(data: data, encoding: .utf8) else { throw malformed("not text") }
    var manifest = FossilManifest(baseline: nil, files: [:])
    var sawCard = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      guard let card = fields.first, card.count == 1 else { continue }
      switch card {
      case "B":
        guard fields.count == 2, FossilRepository.isHash(String(fields[1])) else {
          throw malformed("a B card is not a hash")
        }
        manifest.baseline = String(fields[1])
      case "F":
        guard fields.count >= 2 else { throw malformed("an F card names no file") }
        let path = try safePath(decode(fields[1]))
        guard fields.count >= 3 else {
          manifest.files[path] = .some(nil)
          continue
        }
        let hash = String(fields[2])
        guard FossilRepository.isHash(hash) else { throw malformed("an F card has no hash") }
        let permissions = fields.count >= 4 ? fields[3] : ""
        manifest.files[path] = Entry(hash: hash, executable: permissions.contains("x"))
      case "C", "D", "P", "U", "Z", "R", "T", "Q", "N": break
      default: continue
      }
      sawCard = true
    }
    guard sawCard else { throw malformed("it holds no card") }
    return manifest
  }

  /// Every file of check-in `uuid`: its manifest's, and for a delta manifest its baseline's
  /// with the delta applied. `artifact` reads a manifest's bytes; `source` names where from
  /// (for errors).
  ///
  /// - Throws: ``FossilError/unexpectedAnswer(request:reason:)`` when a manifest is not one, or
  ///   a delta's baseline is itself a delta.
  static func files(
    of uuid: String, source: String, artifact: (String) async throws -> Data
  ) async throws -> [String: Entry] {
    let manifest = try parse(try await artifact(uuid))
    guard let baseline = manifest.baseline else { return manifest.files.compactMapValues { $0 } }
    let base = try parse(try await artifact(baseline))
    guard base.baseline == nil else {
      throw FossilError.unexpectedAnswer(
        request: source, reason: "the baseline manifest of \(uuid) is itself a delta")
    }
    var files = base.files.compactMapValues { $0 }
    for (path, entry) in manifest.files { files[path] = entry }
    return files.compactMapValues { $0 }
  }

  /// Fossil's encoding of names in cards: `\s` a space, `\n` a newline, `\\` a backslash…
  static func decode(_ field: Substring) -> String {
    guard field.contains("\\") else { return String(field) }
    var result = ""
    var escaped = false
    for character in field {
      guard escaped else {
        if character == "\\" { escaped = true } else { result.append(character) }
        continue
      }
      escaped = false
      switch character {
      case "s": result.append(" ")
      case "n": result.append("\n")
      case "t": result.append("\t")
      case "r": result.append("\r")
      case "v": result.append("\u{0B}")
      case "f": result.append("\u{0C}")
      case "0": result.append("\0")
      default: result.append(character)
      }
    }
    return result
  }

  /// `path` when it stays inside a working copy: relative, no empty, `.` or `..` part, no NUL.
  static func safePath(_ path: String) throws -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0"),
      parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
    else { throw malformed("it names a file outside the working copy") }
    return path
  }

  private static func malformed(_ reason: String) -> FossilError {
    .unexpectedAnswer(request: "GET /raw (manifest)", reason: reason)
  }
}
