import ComposableWorkspace
import Foundation

extension FossilWorkspaceClient {
  /// Compares the editable files with `baseline` (which must be the installed one), locally.
  public func captureChanges(
    _ source: FossilWorkingCopy, _ baseline: WorkspaceBranchReference
  ) async throws -> FossilChangeSet {
    try await authorized(askingServer: false)
    return try await serialized(source) {
      let store = self.store(source)
      guard let installed = try store.installed() else {
        throw FossilWorkspaceError.notAWorkspace(
          path: source.folder.path, reason: "no baseline.json")
      }
      guard installed.reference == baseline else {
        throw FossilWorkspaceError.baselineNotInstalled(
          given: baseline, installed: installed.reference)
      }
      let working = try store.scan()
      var changes: [FossilFileChange] = []
      for path in Set(working.keys).union(installed.files.keys).sorted() {
        let file = working[path]
        let entry = installed.files[path]
        guard try !store.matches(file, entry) else { continue }
        guard let file else {
          changes.append(.deleted(path: path))
          continue
        }
        let content = try store.capture(try Data(contentsOf: file.url))
        changes.append(
          entry == nil
            ? .added(path: path, content: content, executable: file.executable)
            : .modified(path: path, content: content, executable: file.executable))
      }
      return FossilChangeSet(baseline: baseline.revision, changes: changes)
    }
  }
}
