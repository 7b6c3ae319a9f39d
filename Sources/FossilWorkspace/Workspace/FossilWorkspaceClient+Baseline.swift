import ComposableWorkspace
import Foundation

extension FossilWorkspaceClient {
  /// Creates or reopens workspace `id` and answers its coherent session.
  public func prepareSource(_ id: WorkspaceID) async throws -> WorkspaceSession<FossilWorkingCopy> {
    try await authorized(askingServer: false)
    let copy = workingCopy(for: id)
    return try await serialized(copy) {
      if let installed = try self.store(copy).installed() {
        try self.check(installed, belongsTo: copy)
        return WorkspaceSession(source: copy, baseline: installed.reference)
      }
      guard !FileManager.default.fileExists(atPath: copy.folder.path) else {
        throw FossilWorkspaceError.notAWorkspace(path: copy.folder.path, reason: "no baseline.json")
      }
      let baseline = try await self.revokingOnRefusal {
        try await self.authorized(askingServer: true)
        return try await self.create(copy)
      }
      return WorkspaceSession(source: copy, baseline: baseline)
    }
  }

  /// Installs the newest check-in of `baseline.branch`; answers the same branch.
  public func refreshBaseline(
    _ source: FossilWorkingCopy, _ baseline: WorkspaceBranchReference
  ) async throws -> WorkspaceBranchReference {
    try await install(baseline.branch, in: source)
  }

  /// Installs the newest check-in of `branch`; answers exactly `branch`.
  public func selectBranch(
    _ source: FossilWorkingCopy, _ branch: BranchName
  ) async throws -> WorkspaceBranchReference {
    try await install(branch, in: source)
  }

  private func install(_ branch: BranchName, in copy: FossilWorkingCopy) async throws
    -> WorkspaceBranchReference
  {
    try await authorized(askingServer: false)
    try Self.validate(branch)
    return try await serialized(copy) {
      let store = self.store(copy)
      guard let installed = try store.installed() else {
        throw FossilWorkspaceError.notAWorkspace(path: copy.folder.path, reason: "no baseline.json")
      }
      try self.check(installed, belongsTo: copy)
      return try await self.revokingOnRefusal {
        try await self.authorized(askingServer: true)
        let clone = self.clone
        try await clone.pull()
        guard let head = try await clone.head(of: branch.rawValue) else {
          throw FossilWorkspaceError.branchNotFound(branch)
        }
        let reference = WorkspaceBranchReference(branch: branch, revision: head.uuid)
        guard reference != installed.reference else { return reference }
        let files =
          head.uuid == installed.reference.revision
          ? installed.files : try await clone.files(of: head.uuid)
        let plan = try Self.plan(store, from: installed.files, to: files, installing: branch)
        // Every new content is read before the first file changes: a failure leaves the
        // working copy as it was.
        var steps: [(path: String, file: (content: Data, executable: Bool)?)] = []
        for (path, entry) in plan {
          guard let entry else {
            steps.append((path, nil))
            continue
          }
          steps.append((path, (try await clone.artifact(entry.hash), entry.executable)))
        }
        for (path, file) in steps {
          if let file {
            try store.write(file.content, to: path, executable: file.executable)
          } else {
            try store.remove(path)
          }
        }
        try store.install(.init(server: installed.server, reference: reference, files: files))
        return reference
      }
    }
  }

  /// Brings the clone up to date and opens the default branch's newest check-in as a new
  /// working copy (built beside its folder, then renamed into place); answers the installed
  /// baseline. The files are written by `fossil open` (every byte and executable bit as the
  /// check-in holds them); no pristine copy is kept: a file is its baseline's when it hashes
  /// to the artifact's name (``ArtifactName``).
  private func create(_ copy: FossilWorkingCopy) async throws -> WorkspaceBranchReference {
    let branch = configuration.defaultBranch
    try Self.validate(branch)
    let clone = self.clone
    try await clone.pull()
    guard let head = try await clone.head(of: branch.rawValue) else {
      throw FossilWorkspaceError.branchNotFound(branch)
    }
    let files = try await clone.files(of: head.uuid)
    let root = copy.folder.deletingLastPathComponent()
    try FileManager.default.createDirectory(
      at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let partialFolder = root.appendingPathComponent(
      ".\(copy.folder.lastPathComponent).partial-\(UUID().uuidString)", isDirectory: true)
    let partial = WorkingCopyStore(
      copy: FossilWorkingCopy(
        files: partialFolder.appendingPathComponent("files", isDirectory: true),
        folder: partialFolder, server: copy.server))
    do {
      try FileManager.default.createDirectory(
        at: partial.copy.files, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      try await clone.fossil.run([
        "open", clone.file.path, head.uuid, "--workdir", partial.copy.files.path, "--nosync",
        "--force",
      ])
      try await clone.fossil.run(["close", "--force"], in: partial.copy.files)
      guard try partial.scan().keys.sorted() == files.keys.sorted() else {
        throw FossilError.unexpectedAnswer(
          request: "fossil open", reason: "the files written are not the check-in's")
      }
      let reference = WorkspaceBranchReference(branch: branch, revision: head.uuid)
      try partial.install(.init(server: copy.server, reference: reference, files: files))
      try FileManager.default.moveItem(at: partialFolder, to: copy.folder)
      return reference
    } catch {
      try? FileManager.default.removeItem(at: partialFolder)
      throw error
    }
  }

  /// What moves the editable files from the `old` baseline's to the `new` one's: each path to
  /// write (with its new entry) or remove (`nil`). Files the user did not edit follow the
  /// server, edits of files the server did not change stay. When a file changed on both sides,
  /// nothing may change: ``FossilWorkspaceError/localEditsWouldBeOverwritten(_:paths:)``.
  private static func plan(
    _ store: WorkingCopyStore, from old: [String: FossilManifest.Entry],
    to new: [String: FossilManifest.Entry], installing branch: BranchName
  ) throws -> [(path: String, entry: FossilManifest.Entry?)] {
    let working = try store.scan()
    var plan: [(path: String, entry: FossilManifest.Entry?)] = []
    var conflicts: [String] = []
    for path in Set(old.keys).union(new.keys).sorted() where old[path] != new[path] {
      let current = working[path]
      if try store.matches(current, old[path]) {
        plan.append((path, new[path]))
      } else if try !store.matches(current, new[path]) {
        conflicts.append(path)
      }
    }
    guard conflicts.isEmpty else {
      throw FossilWorkspaceError.localEditsWouldBeOverwritten(branch, paths: conflicts)
    }
    return plan
  }

  /// Checks a recorded baseline was made for `copy`'s server.
  private func check(
    _ installed: WorkingCopyStore.InstalledBaseline, belongsTo copy: FossilWorkingCopy
  )
    throws
  {
    guard installed.server == copy.server else {
      throw FossilWorkspaceError.serverMismatch(expected: copy.server, found: installed.server)
    }
  }

  static func validate(_ branch: BranchName) throws {
    let name = branch.rawValue
    guard !name.isEmpty, name.count <= 200,
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { throw FossilWorkspaceError.invalidBranchName(branch) }
  }
}

extension WorkingCopyStore {
  /// Whether the editable file `file` (or its absence) is exactly the baseline `entry`'s
  /// content and executable bit (or its absence).
  func matches(_ file: WorkingFile?, _ entry: FossilManifest.Entry?) throws -> Bool {
    switch (file, entry) {
    case (nil, nil): return true
    case (let file?, let entry?):
      guard file.executable == entry.executable else { return false }
      return ArtifactName.names(try Data(contentsOf: file.url), entry.hash)
    default: return false
    }
  }
}
