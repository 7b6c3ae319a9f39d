import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import GitWorkspace
import ProcessTestSupport
import Testing

@MainActor
@Suite("Git client: the capability provider and local data", .requires(.git))
struct CapabilityAndLocalDataTests {
  @Test("The client reads the capability Authoring validated, at every operation")
  func readsTheProvider() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let remote = try await TestRemote.make(in: directory)
    let capability = AuthoringCapabilityProvider()
    let git = GitWorkspaceClient(remote: remote.path, root: remote.root, capability: capability)
    let authoring = TestStore(initialState: Authoring.State()) {
      Authoring()
    } withDependencies: {
      $0[AuthoringClient.self] = AuthoringClient(
        restorePersistedGrant: { nil }, clearIncomingSharedGrants: {},
        validate: { _ in .ada }, requestAdmission: { .ada },
        persist: { _ in }, discardPersistedGrant: { _ in }, relinquish: { _ in })
      $0[AuthoringCapabilityProvider.self] = capability
    }

    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      _ = try await git.prepareSource("catalogue")
    }

    await authoring.send(.requestAuthoring)
    await authoring.receiveModification { $0 = Authoring.State(admission: .admitted(.ada)) }
    await authoring.receive(.delegate(.grantValidated(.ada)))
    let session = try await git.prepareSource("catalogue")
    #expect(session.baseline.branch == "main")

    await authoring.send(.leaveAuthoring) { $0 = Authoring.State() }
    await authoring.receive(.delegate(.grantInvalidated))
    await authoring.finish()
    await #expect(throws: WorkspaceAuthorizationError.invalidated) {
      _ = try await git.captureChanges(session.source, session.baseline)
    }
  }

  @Test("removeWorkingCopy deletes the workspace's local data; preparing again starts fresh")
  func removeWorkingCopy() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let harness = try await GitHarness.make(in: directory)
    let first = try await harness.git.prepareSource("catalogue")
    try append("an edit\n", to: first.source.worktree.appendingPathComponent("a.txt"))
    let moved = try await harness.remote.commit(on: "main")

    try await harness.git.removeWorkingCopy("catalogue")
    #expect(
      !FileManager.default.fileExists(
        atPath: first.source.worktree.deletingLastPathComponent().path))

    // A fresh copy: at the current head, without the edit.
    let second = try await harness.git.prepareSource("catalogue")
    #expect(second.baseline.revision == moved)
    let changes = try await harness.git.captureChanges(second.source, second.baseline)
    #expect(changes.isEmpty)

    // Removing what was never prepared does nothing, and needs no capability.
    harness.capability.setValue(nil)
    try await harness.git.removeWorkingCopy("never-prepared")
  }
}
