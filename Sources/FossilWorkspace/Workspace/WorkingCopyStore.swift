import ComposableWorkspace
import Foundation
import WorkspaceHTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A working copy's folder on disk (see ``FossilWorkingCopy`` for the layout): the installed
/// baseline's record, captured contents, and the editable files themselves. Writes never follow a symbolic link out of the folder, and every file the
/// client writes goes in atomically (a temporary file renamed into place).
struct WorkingCopyStore: Sendable {
  let copy: FossilWorkingCopy

  /// What `baseline.json` records: the installed baseline, its server, and its files.
  struct InstalledBaseline: Codable, Equatable, Sendable {
    var server: String
    var reference: WorkspaceBranchReference
    var files: [String: FossilManifest.Entry]
  }

  /// A file of the editable copy.
  struct WorkingFile: Equatable, Sendable {
    var url: URL
    var executable: Bool
  }

  var baselineRecord: URL { copy.folder.appendingPathComponent("baseline.json") }
  var captures: URL { copy.folder.appendingPathComponent("captured", isDirectory: true) }

  // MARK: The installed baseline

  /// The installed baseline, or `nil` when the folder has none yet.
  func installed() throws -> InstalledBaseline? {
    guard FileManager.default.fileExists(atPath: baselineRecord.path) else { return nil }
    do {
      return try JSONDecoder().decode(
        InstalledBaseline.self, from: Data(contentsOf: baselineRecord))
    } catch {
      throw FossilWorkspaceError.notAWorkspace(
        path: copy.folder.path, reason: "its baseline.json cannot be read")
    }
  }

  /// Records `baseline` as the installed one (atomically: the old record or the new, never half).
  func install(_ baseline: InstalledBaseline) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    try encoder.encode(baseline).write(to: baselineRecord, options: .atomic)
  }

  // MARK: Contents

  /// Keeps `data` as captured content and answers its name (its SHA-256, hex).
  func capture(_ data: Data) throws -> String {
    let digest = SHA256.hash(data).hexString
    let file = captures.appendingPathComponent(digest)
    if !FileManager.default.fileExists(atPath: file.path) {
      try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
      try data.write(to: file, options: .atomic)
    }
    return digest
  }

  /// Content captured as `digest`.
  func captured(_ digest: String, path: String) throws -> Data {
    guard let data = try? Data(contentsOf: captures.appendingPathComponent(digest)) else {
      throw FossilWorkspaceError.capturedContentMissing(path: path)
    }
    return data
  }

  // MARK: The editable files

  /// Every regular file of the editable copy, by path.
  ///
  /// - Throws: ``FossilWorkspaceError/unsupportedEntry(path:)`` for a symbolic link or any
  ///   other entry that is neither a regular file nor a folder (it is never followed).
  func scan() throws -> [String: WorkingFile] {
    var found: [String: WorkingFile] = [:]
    try scan(copy.files, prefix: "", into: &found)
    return found
  }

  private func scan(_ folder: URL, prefix: String, into found: inout [String: WorkingFile]) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    for name in names.sorted() {
      let url = folder.appendingPathComponent(name)
      let path = prefix + name
      var status = stat()
      guard lstat(url.path, &status) == 0 else { continue }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: try scan(url, prefix: path + "/", into: &found)
      case S_IFREG: found[path] = WorkingFile(url: url, executable: status.st_mode & 0o100 != 0)
      default: throw FossilWorkspaceError.unsupportedEntry(path: path)
      }
    }
  }

  /// Writes `data` as the editable file `path`, creating its folders; a folder on the way
  /// that is a symbolic link or a file is refused, never followed or replaced.
  func write(_ data: Data, to path: String, executable: Bool) throws {
    let target = try fileURL(path, creatingFolders: true)
    try data.write(to: target, options: .atomic)
    guard chmod(target.path, executable ? 0o755 : 0o644) == 0 else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: target.path])
    }
  }

  /// Removes the editable file `path` (nothing when it is not there).
  func remove(_ path: String) throws {
    let target = try fileURL(path, creatingFolders: false)
    var status = stat()
    guard lstat(target.path, &status) == 0 else { return }
    try FileManager.default.removeItem(at: target)
  }

  /// The URL of editable file `path`, every folder on the way checked to be a real folder.
  private func fileURL(_ path: String, creatingFolders: Bool) throws -> URL {
    let parts = try FossilManifest.safePath(path).split(separator: "/").map(String.init)
    var folder = copy.files
    for part in parts.dropLast() {
      folder = folder.appendingPathComponent(part, isDirectory: true)
      var status = stat()
      if lstat(folder.path, &status) == 0 {
        guard status.st_mode & S_IFMT == S_IFDIR else {
          throw FossilWorkspaceError.unsupportedEntry(
            path: String(folder.path.dropFirst(copy.files.path.count + 1)))
        }
      } else if creatingFolders {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
      }
    }
    return folder.appendingPathComponent(parts[parts.count - 1])
  }
}
