import Foundation

/// The Fossil integration's workspace source: a local editable copy of the repository's files
/// at the installed baseline, and where the client keeps what it knows about it.
///
/// Layout under the client's root, per workspace id:
///
/// ```text
/// <root>/<id>/files/           the editable copy: every file of the baseline check-in
/// <root>/<id>/baseline.json    the installed baseline (branch@check-in), its server, its files
/// <root>/<id>/captured/<sha>   file contents captured for a proposal (what publishing sends)
/// ```
///
/// It lives on disk between runs; the value is what `Workspace` keeps in its ready session and
/// hands back to every later call (it is `Codable`, so an app may persist the session).
public struct FossilWorkingCopy: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The editable copy: the editor's source of truth.
  public var files: URL
  /// The folder holding it and the client's records (`<root>/<id>`).
  public var folder: URL
  /// The Fossil server the workspace was prepared from (its base URL).
  public var server: String

  public init(files: URL, folder: URL, server: String) {
    self.files = files
    self.folder = folder
    self.server = server
  }

  public var description: String { "files \(files.path) (server \(server))" }
}
