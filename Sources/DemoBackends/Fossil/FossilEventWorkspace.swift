import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import FossilWorkspace
import Foundation
import WorkspaceDemoFeature

extension WorkspaceClient where Source == EventWorkingCopy, ChangeSet == EventChangeSet {
  /// The demo's workspace client on a Fossil server: an adapter from the application's
  /// `EventWorkingCopy`/`EventChangeSet` to ``FossilWorkspaceClient``, which does the Fossil
  /// work. The editable copy of workspace `id` holds the catalogue as one file
  /// (``CatalogueFile``). Every call first checks `capability`, then writes the events it is
  /// given into that file (when they differ), then delegates; the events answered are read
  /// back from the file. Selecting a branch is refused while the events differ from the
  /// baseline (the demo's rule); publishing captures again and publishes only when the events
  /// still match the change set given.
  static func fossil(
    _ fossil: FossilWorkspaceClient,
    reader: FossilReader,
    capability: @escaping @Sendable () async -> AuthoringContext?
  ) -> Self {
    @Sendable func checkOut(_ source: EventWorkingCopy) async throws -> FossilWorkingCopy {
      guard await capability() != nil else { throw WorkspaceAuthorizationError.invalidated }
      let copy = fossil.workingCopy(for: source.workspace)
      guard FileManager.default.fileExists(atPath: copy.files.path) else {
        throw FossilEventWorkspaceError.missingWorkingCopy(source.workspace, path: copy.files.path)
      }
      let file = copy.files.appendingPathComponent(CatalogueFile.path)
      let bytes = try CatalogueFile.encoded(source.events)
      if (try? Data(contentsOf: file)) != bytes { try bytes.write(to: file, options: .atomic) }
      return copy
    }

    @Sendable func session(
      _ id: WorkspaceID, _ copy: FossilWorkingCopy, _ baseline: WorkspaceBranchReference
    ) throws -> WorkspaceSession<EventWorkingCopy> {
      let file = copy.files.appendingPathComponent(CatalogueFile.path)
      guard let data = try? Data(contentsOf: file) else {
        throw CatalogueFileError.unreadable("the working copy has no \(CatalogueFile.path)")
      }
      let events = try CatalogueFile.decoded(data)
      return WorkspaceSession(
        source: EventWorkingCopy(workspace: id, events: IdentifiedArray(events)), baseline: baseline
      )
    }

    @Sendable func changes(_ source: EventWorkingCopy, against revision: String) async throws
      -> EventChangeSet
    {
      let data = try await reader.catalogueData(at: revision)
      return EventChangeSet.between(
        baseline: try CatalogueFile.decoded(data), working: Array(source.events))
    }

    return Self(
      prepareSource: { id in
        guard await capability() != nil else { throw WorkspaceAuthorizationError.invalidated }
        let prepared = try await fossil.prepareSource(id)
        return try session(id, prepared.source, prepared.baseline)
      },
      refreshBaseline: { source, baseline in
        let copy = try await checkOut(source)
        // The catalogue is one file, so edits are carried at the event level (as the in-memory
        // system does): the file goes back to the baseline's bytes, the Fossil client installs
        // the new head, and the edits are applied to its events.
        let pristine = try await reader.catalogueData(at: baseline.revision)
        let edits = EventChangeSet.between(
          baseline: try CatalogueFile.decoded(pristine), working: Array(source.events))
        let file = copy.files.appendingPathComponent(CatalogueFile.path)
        try pristine.write(to: file, options: .atomic)
        let installed: WorkspaceBranchReference
        do {
          installed = try await fossil.refreshBaseline(copy, baseline)
        } catch {
          try CatalogueFile.encoded(source.events).write(to: file, options: .atomic)
          throw error
        }
        let head = try session(source.workspace, copy, installed).source.events
        try CatalogueFile.encoded(edits.applied(to: Array(head))).write(to: file, options: .atomic)
        return try session(source.workspace, copy, installed)
      },
      selectBranch: { source, branch in
        let copy = try await checkOut(source)
        let current = try await fossil.prepareSource(source.workspace).baseline
        guard try await changes(source, against: current.revision).isEmpty else {
          throw DemoWorkspaceError.uncommittedEdits
        }
        let installed = try await fossil.selectBranch(copy, branch)
        return try session(source.workspace, copy, installed)
      },
      captureChanges: { source, baseline in
        let copy = try await checkOut(source)
        _ = try await fossil.captureChanges(copy, baseline)
        return try await changes(source, against: baseline.revision)
      },
      publishProposal: { source, baseline, expected, request in
        let copy = try await checkOut(source)
        let captured = try await fossil.captureChanges(copy, baseline)
        guard try await changes(source, against: baseline.revision) == expected else {
          throw FossilEventWorkspaceError.changedSinceCapture
        }
        return try await fossil.publishProposal(copy, baseline, captured, request)
      }
    )
  }
}

/// Why the Fossil-backed demo workspace refused an operation.
enum FossilEventWorkspaceError: Error, Equatable, Sendable, LocalizedError,
  CustomStringConvertible
{
  /// The session names a working copy that is not there (its folder was removed).
  case missingWorkingCopy(WorkspaceID, path: String)
  /// The change set given to publish is not what the working copy changes now.
  case changedSinceCapture

  var description: String {
    switch self {
    case .missingWorkingCopy(let id, let path):
      "the working copy of workspace \(id) is missing (\(path)); its edits cannot be used"
    case .changedSinceCapture:
      "the working copy changed since its changes were captured; nothing was proposed"
    }
  }

  var errorDescription: String? { description }
}
