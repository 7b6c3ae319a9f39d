import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import FossilWorkspace
import Foundation

/// A Fossil workspace client signed in as ada on a fixture's server (or through a proxy), with
/// a capability the test controls, and a prepared workspace.
struct WorkspaceHarness: Sendable {
  let fixture: FossilFixture
  let session: FossilSession
  let capability: LockIsolated<AuthoringContext?>
  let fossil: FossilWorkspaceClient
  let prepared: WorkspaceSession<FossilWorkingCopy>

  static func make(
    _ fixture: FossilFixture, through url: URL? = nil,
    configuration: FossilSessionConfiguration = FossilSessionConfiguration(timeout: .seconds(10))
  ) async throws -> WorkspaceHarness {
    let session = FossilSession(baseURL: url ?? fixture.baseURL, configuration: configuration)
    _ = try await session.signIn(name: "ada", password: FossilFixture.ada.password)
    let capability = LockIsolated<AuthoringContext?>(.editor(FossilFixture.ada))
    let fossil = FossilWorkspaceClient(
      session: session,
      configuration: FossilWorkspaceConfiguration(
        root: fixture.workspaces("ws-\(UUID().uuidString)")),
      capability: { capability.current })
    let prepared = try await fossil.prepareSource("catalogue")
    return WorkspaceHarness(
      fixture: fixture, session: session, capability: capability, fossil: fossil,
      prepared: prepared)
  }

  var source: FossilWorkingCopy { prepared.source }
  var baseline: WorkspaceBranchReference { prepared.baseline }

  /// Writes `content` into the editable file `path`.
  func edit(_ path: String, _ content: String) throws {
    let file = source.files.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(content.utf8).write(to: file)
  }

  /// The editable file `path`'s content.
  func read(_ path: String) throws -> String {
    try String(contentsOf: source.files.appendingPathComponent(path), encoding: .utf8)
  }

  /// Captures the edits against the prepared baseline.
  func capture() async throws -> FossilChangeSet {
    try await fossil.captureChanges(source, baseline)
  }

  /// Edits `a.txt` and publishes the edit as a proposal made with `request`.
  @discardableResult
  func proposeAnEdit(_ request: ProposalRequest = WorkspaceHarness.request()) async throws
    -> ProposalRecord
  {
    try edit("a.txt", "alpha, proposed\n")
    return try await fossil.publishProposal(source, baseline, try await capture(), request)
  }

  static func request(_ title: String = "Change a") -> ProposalRequest {
    ProposalRequest(title: title, summary: "From a test.", idempotencyKey: UUID())
  }
}
