import ComposableCore
import Foundation
import GitWorkspace
import WorkingCopySupport
import WorkspaceDemoFeature

/// How the catalogue lives in a Git repository: one JSON file per event, `events/<id>.json`,
/// with sorted keys and a final newline, so the same event always has the same bytes (and an
/// unchanged event never shows as a change).
///
/// ```text
/// events/e1.json
/// {
///   "date" : "2026-12-12",
///   "id" : "e1",
///   "title" : "Winter Concert",
///   "venue" : "Town Hall"
/// }
/// ```
///
/// The event's id is the one in the file; the file name is only where it is kept (an id's
/// unsafe bytes are written `%XX`, so no id can name a path). Other files of the repository
/// are not events and are left alone.
enum EventFiles {
  /// The directory holding the events, relative to the repository's root.
  static let directory = "events"

  /// `<id>.json`, with every byte but ASCII letters, digits, `-`, `_` and a non-leading `.`
  /// written `%XX`.
  static func fileName(for id: String) -> String {
    PathComponent.escaping(id) + ".json"
  }

  /// The file's bytes: pretty JSON with sorted keys and a final newline.
  static func encoded(_ event: Event) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(event) + Data("\n".utf8)
  }

  /// The event a file holds.
  static func decoded(_ data: Data, path: String) throws(EventFileError) -> Event {
    do {
      return try JSONDecoder().decode(Event.self, from: data)
    } catch {
      throw .unreadable(path: path, reason: "it does not hold one event as JSON")
    }
  }

  /// The catalogue's order: by id, numbers compared as numbers (`e2` before `e10`).
  static func ordered(_ events: [Event]) -> [Event] {
    events.sorted { $0.id.compare($1.id, options: [.numeric, .literal]) == .orderedAscending }
  }

  /// Checks that no two files hold the same event, and orders them.
  static func catalogue(_ files: [(path: String, event: Event)]) throws(EventFileError) -> [Event] {
    var seen: [String: String] = [:]
    for file in files {
      if let other = seen[file.event.id] {
        throw .duplicate(id: file.event.id, paths: [other, file.path].sorted())
      }
      seen[file.event.id] = file.path
    }
    return ordered(files.map(\.event))
  }

  // MARK: Worktree

  /// The events in a worktree's `events/` directory, with the file each is in.
  ///
  /// Only regular files are read: a symbolic link (or anything else that is not a regular
  /// file) among them, or an `events` that is not a real directory, is an error and is never
  /// followed, so nothing outside the working copy can be shown as an event.
  static func files(in worktree: URL) throws(EventFileError) -> [(path: String, event: Event)] {
    let directory = worktree.appendingPathComponent(Self.directory, isDirectory: true)
    var status = stat()
    guard lstat(directory.path, &status) == 0 else {
      if errno == ENOENT { return [] }
      throw .unreadable(path: Self.directory, reason: String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      throw .unreadable(path: Self.directory, reason: notFollowed(status.st_mode))
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      throw .unreadable(path: Self.directory, reason: error.localizedDescription)
    }
    var files: [(path: String, event: Event)] = []
    for name in names.sorted() where name.hasSuffix(".json") {
      let path = "\(Self.directory)/\(name)"
      let data = try readRegularFile(directory.appendingPathComponent(name), path: path)
      files.append((path, try decoded(data, path: path)))
    }
    return files
  }

  /// The bytes of the regular file at `url`, opened without following a symbolic link.
  private static func readRegularFile(_ url: URL, path: String) throws(EventFileError) -> Data {
    let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let reason = errno == ELOOP ? notFollowed(S_IFLNK) : String(cString: strerror(errno))
      throw .unreadable(path: path, reason: reason)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw .unreadable(path: path, reason: notFollowed(status.st_mode))
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      // sync-wait: a regular file — its read never waits for another thread
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .unreadable(path: path, reason: String(cString: strerror(errno)))
      }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// Why an entry that is not a regular file (or directory) is not read.
  static func notFollowed(_ mode: mode_t) -> String {
    mode & S_IFMT == S_IFLNK
      ? "it is a symbolic link; it is not followed" : "it is not a regular file; it is not read"
  }

  /// The events of a worktree, in the catalogue's order.
  static func events(in worktree: URL) throws(EventFileError) -> [Event] {
    try catalogue(try files(in: worktree))
  }

  /// Makes the worktree's `events/` hold exactly `events`: a changed event's file is
  /// rewritten, a new one is added, a file whose event is gone is deleted, and the file of an
  /// unchanged event is not touched.
  static func write(_ events: some Sequence<Event>, to worktree: URL) throws(EventFileError) {
    let directory = worktree.appendingPathComponent(Self.directory, isDirectory: true)
    let existing = try files(in: worktree)
    let pathByID = Dictionary(
      existing.map { ($0.event.id, $0.path) }, uniquingKeysWith: { first, _ in first })
    let eventByPath = Dictionary(
      existing.map { ($0.path, $0.event) }, uniquingKeysWith: { first, _ in first })
    var kept = Set<String>()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for event in events {
        let path = pathByID[event.id] ?? "\(Self.directory)/\(fileName(for: event.id))"
        kept.insert(path)
        if eventByPath[path] == event { continue }
        try encoded(event).write(to: worktree.appendingPathComponent(path), options: .atomic)
      }
      for file in existing where !kept.contains(file.path) {
        try FileManager.default.removeItem(at: worktree.appendingPathComponent(file.path))
      }
    } catch {
      throw .unwritable(reason: error.localizedDescription)
    }
  }
}

/// Reads the catalogue at a commit of a local repository, through git. Commits are immutable,
/// so what was read once is remembered by commit hash (in any repository).
struct EventReader: Sendable {
  let git: GitProcess
  private let cache = LockIsolated<[String: [Event]]>([:])

  init(git: GitProcess) {
    self.git = git
  }

  /// The full hash of the commit `revision` names in `repository`, or `nil`.
  func commit(_ revision: String, in repository: URL) async throws -> String? {
    guard !revision.isEmpty, !revision.hasPrefix("-") else { return nil }
    let result = try await git.run(
      ["rev-parse", "--verify", "--quiet", "\(revision)^{commit}"], in: repository,
      acceptedStatuses: [0, 1, 128])
    let hash = result.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    return result.status == 0 && !hash.isEmpty ? hash : nil
  }

  /// The events of commit `revision` in `repository` (`git ls-tree`, then one
  /// `git cat-file --batch` for every file).
  func events(at revision: String, in repository: URL) async throws -> [Event] {
    guard let commit = try await commit(revision, in: repository) else {
      throw EventFileError.unknownRevision(revision)
    }
    if let known = cache.withValue({ $0[commit] }) { return known }
    let listing = try await git.run(
      ["ls-tree", "-z", "--full-tree", commit, "--", "\(EventFiles.directory)/"], in: repository
    ).standardOutput
    var blobs: [(path: String, object: String)] = []
    for entry in listing.split(separator: 0) {
      let text = String(decoding: entry, as: UTF8.self)
      guard let tab = text.firstIndex(of: "\t") else { continue }
      let fields = text[..<tab].split(separator: " ")
      let path = String(text[text.index(after: tab)...])
      guard fields.count == 3, fields[1] == "blob", path.hasSuffix(".json") else { continue }
      guard fields[0] != "120000" else {
        throw EventFileError.unreadable(path: path, reason: EventFiles.notFollowed(S_IFLNK))
      }
      blobs.append((path, String(fields[2])))
    }
    var files: [(path: String, event: Event)] = []
    if !blobs.isEmpty {
      let input = blobs.map(\.object).joined(separator: "\n") + "\n"
      let output = try await git.run(
        ["cat-file", "--batch"], in: repository, input: Data(input.utf8)
      ).standardOutput
      let contents = try Self.parseBatch(output, count: blobs.count)
      for (blob, data) in zip(blobs, contents) {
        files.append((blob.path, try EventFiles.decoded(data, path: blob.path)))
      }
    }
    let events = try EventFiles.catalogue(files)
    cache.withValue { $0[commit] = events }
    return events
  }

  /// Splits `git cat-file --batch` output: per object a header `<oid> <type> <size>`, the
  /// content, a newline.
  static func parseBatch(_ output: Data, count: Int) throws(EventFileError) -> [Data] {
    let bytes = [UInt8](output)
    var contents: [Data] = []
    var position = 0
    while contents.count < count {
      guard let newline = bytes[position...].firstIndex(of: 0x0A) else {
        throw .unreadable(path: EventFiles.directory, reason: "git cat-file answered too little")
      }
      let header = String(decoding: bytes[position..<newline], as: UTF8.self).split(separator: " ")
      guard header.count == 3, let size = Int(header[2]), newline + 1 + size <= bytes.count else {
        throw .unreadable(
          path: EventFiles.directory,
          reason:
            "git cat-file answered \(String(decoding: bytes[position..<newline], as: UTF8.self))")
      }
      let start = newline + 1
      contents.append(Data(bytes[start..<(start + size)]))
      position = start + size + 1
    }
    return contents
  }
}

/// Why the catalogue's files could not be read or written.
enum EventFileError: Error, Equatable, Sendable, LocalizedError, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case duplicate(id: String, paths: [String])
  case unwritable(reason: String)
  case unknownRevision(String)

  var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
    case .duplicate(let id, let paths): "\(paths.joined(separator: " and ")) both hold event \(id)"
    case .unwritable(let reason): "cannot write the events into the worktree: \(reason)"
    case .unknownRevision(let revision): "there is no commit \(revision)"
    }
  }

  var errorDescription: String? { description }
}
