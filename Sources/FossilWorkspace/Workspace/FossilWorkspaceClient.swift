import ComposableAuthoring
import ComposableWorkspace
import Foundation
import WorkingCopySupport
import WorkspaceHTTP

/// A `WorkspaceClient` over a Fossil server (2.21) on Fossil's own machinery: a local clone
/// (`<root>/.fossil/`, worked with the `fossil` executable and synced through the session, see
/// `FossilSyncRelay`), workspaces that are local editable copies of the repository's files at
/// an exact check-in, and proposals that are one check-in each on a branch of their own,
/// `<prefix><idempotency key>`.
///
/// ```swift
/// let capability = AuthoringCapabilityProvider()
/// let session = FossilSession(baseURL: server)
/// let fossil = FossilWorkspaceClient(
///   session: session,
///   configuration: FossilWorkspaceConfiguration(root: workspaces, defaultBranch: "trunk"),
///   capability: capability)
/// EventApplication()
///   .dependency(capability)   // Authoring publishes the validated capability into it
///   .dependency(fossil.client)
/// ```
///
/// **Authorization.** Every operation first reads the capability in force from the
/// `AuthoringCapabilityProvider` (none: `WorkspaceAuthorizationError.invalidated`). Every
/// operation that talks to the server then asks it who is signed in (`/json/cap`): a login it
/// no longer honours (signed out elsewhere, expired), another user than the capability's, or a
/// user who lost the check-in capability `i` answers `.invalidated` too — so capabilities
/// removed on the server take effect at the next call. A write the server refuses for lack of
/// permission later in the same operation answers `.invalidated` as well.
///
/// - **prepareSource** pulls the clone and opens the default branch's newest check-in into
///   `<root>/<id>/files/` (`fossil open`), recording that check-in as the installed baseline
///   (built beside its final folder, then renamed into place). Reopening a prepared workspace is local: the
///   files are never touched and the recorded baseline is answered, however far the branch
///   moved.
/// - **captureChanges** compares the editable files with the installed baseline's files by
///   their artifact names (a file is unchanged when it hashes to its artifact's SHA3-256 or
///   SHA-1 name, so no pristine copy is kept): added, modified (content or executable bit) and
///   deleted files. Changed contents are stored in `captured/`, so publishing sends exactly
///   what was captured.
/// - **refreshBaseline** / **selectBranch** pull the clone and install the branch's newest
///   check-in, writing only the files that changed (each read from the clone): an unedited
///   file takes the new content, an edited file the server did not change keeps its edit, and when a file was changed on both sides nothing is changed at all and
///   ``FossilWorkspaceError/localEditsWouldBeOverwritten(_:paths:)`` lists the files.
/// - **publishProposal**: see ``publishProposal(_:_:_:_:)`` for the steps and exactly what is
///   guaranteed against a concurrent writer.
/// - **listProposals** / **merge(proposalID:)** are for reviewers (and the demo).
///
/// Operations on one working copy are serialized in the process.
public struct FossilWorkspaceClient: WorkspaceIntegration {
  /// Where and how this client keeps its workspaces.
  public let configuration: FossilWorkspaceConfiguration
  /// The conversation with the server (its login is the application's).
  public let session: FossilSession
  let capability: @Sendable () async -> AuthoringContext?

  /// Creates a client that reads the capability Authoring validated from `capability` at
  /// every operation.
  public init(
    session: FossilSession, configuration: FossilWorkspaceConfiguration,
    capability: AuthoringCapabilityProvider
  ) {
    self.init(session: session, configuration: configuration, capability: { capability.current })
  }

  /// Creates a client reading the capability through `capability`, for an application that
  /// checks more before each operation; it should answer from the
  /// `AuthoringCapabilityProvider` Authoring publishes into.
  public init(
    session: FossilSession, configuration: FossilWorkspaceConfiguration,
    capability: @escaping @Sendable () async -> AuthoringContext?
  ) {
    self.session = session
    self.configuration = configuration
    self.capability = capability
  }

  /// The working copy workspace `id` uses (whether or not it was prepared yet).
  public func workingCopy(for id: WorkspaceID) -> FossilWorkingCopy {
    let folder = configuration.root.standardizedFileURL
      .appendingPathComponent(PathComponent.escaping(id.rawValue), isDirectory: true)
    return FossilWorkingCopy(
      files: folder.appendingPathComponent("files", isDirectory: true), folder: folder,
      server: session.baseURL.absoluteString)
  }

  /// Deletes workspace `id`'s local data (`<root>/<id>/`: its files with their edits, and its
  /// records). It touches nothing on the server, so it needs no capability. Removing a
  /// workspace that was never prepared does nothing.
  public func removeWorkingCopy(_ id: WorkspaceID) async throws {
    let copy = workingCopy(for: id)
    try await serialized(copy) {
      guard FileManager.default.fileExists(atPath: copy.folder.path) else { return }
      try FileManager.default.removeItem(at: copy.folder)
    }
  }

  // MARK: Authorization

  /// The capability in force; with `askingServer`, confirmed by the server (the same user
  /// signed in, still allowed to check in). Anything else is
  /// `WorkspaceAuthorizationError.invalidated`.
  @discardableResult
  func authorized(askingServer: Bool) async throws -> AuthoringContext {
    guard let context = await capability() else { throw WorkspaceAuthorizationError.invalidated }
    try Task.checkCancellation()
    guard askingServer else { return context }
    let user = try await revokingOnRefusal { try await session.currentUser() }
    guard user.name == context.identity.rawValue, user.capabilities.mayCheckIn else {
      throw WorkspaceAuthorizationError.invalidated
    }
    return context
  }

  /// Runs `body`; a session that ended, or a refusal for lack of permission, becomes
  /// `WorkspaceAuthorizationError.invalidated`.
  func revokingOnRefusal<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch HTTPSessionError.signedOut {
      throw WorkspaceAuthorizationError.invalidated
    } catch FossilError.notAuthorized {
      throw WorkspaceAuthorizationError.invalidated
    }
  }

  var repository: FossilRepository { FossilRepository(session: session) }

  /// The local clone of the server's repository (see ``FossilWorkspaceConfiguration/root``).
  var clone: FossilClone {
    FossilClone(
      root: configuration.root.standardizedFileURL, session: session,
      executable: configuration.fossilExecutable)
  }

  func store(_ copy: FossilWorkingCopy) -> WorkingCopyStore { WorkingCopyStore(copy: copy) }

  /// Runs `operation` alone among this root's operations: they share the local clone (and
  /// `copy`'s folder lies under the root), so fossil never meets its own lock.
  func serialized<T: Sendable>(
    _ copy: FossilWorkingCopy, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await serialized(operation)
  }

  /// Runs `operation` alone among this root's operations (see `serialized(_:_:)`): in this
  /// process behind one gate per clone, and across processes behind the clone's lock.
  func serialized<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    let lock = CloneLock(clone: clone.file)
    return try await SerialGate.shared.run(clone.file.path) {
      try await lock.holding(operation)
    }
  }
}
