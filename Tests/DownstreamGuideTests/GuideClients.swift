import ComposableAuthoring
import ComposableCore
import ComposableWorkspace
import Foundation

// The guide's source, change set and clients, written as a downstream app writes them.

/// The editable source: the working copy of a workspace's events (a value).
struct Catalogue: Hashable, Sendable, Codable {
  let workspace: WorkspaceID
  var events: Events
}

/// What the working copy changed against its baseline: event id → new title (`nil`: removed).
struct CatalogueChanges: WorkspaceChangeSet, Hashable {
  var changed: [String: String?]
  var isEmpty: Bool { changed.isEmpty }

  init(from base: Events, to working: Events) {
    changed = working.filter { base[$0.key] != $0.value }.mapValues { Optional($0) }
    for id in base.keys where working[id] == nil { changed[id] = .some(nil) }
  }

  func applied(to events: Events) -> Events {
    var result = events
    for (id, title) in changed { result[id] = title }
    return result
  }
}

/// The application's own authentication: the signed-in session's token. Not one of the
/// package's owners — Authoring and Workspace never see it.
final class AppSession: Sendable {
  private let token = LockIsolated<String?>(nil)
  var current: String? { token.current }
  func set(_ value: String?) { token.setValue(value) }
}

/// The working copies the workspace client keeps on the device (the app's local data).
final class LocalCopies: DependencyKey, Sendable {
  private let copies = LockIsolated<[WorkspaceID: WorkspaceSession<Catalogue>]>([:])

  subscript(id: WorkspaceID) -> WorkspaceSession<Catalogue>? { copies.withValue { $0[id] } }

  func keep(_ session: WorkspaceSession<Catalogue>) -> WorkspaceSession<Catalogue> {
    copies.withValue { $0[session.source.workspace] = session }
    return session
  }

  func remove(_ id: WorkspaceID) { copies.withValue { $0[id] = nil } }

  static var liveValue: LocalCopies { LocalCopies() }
  static var testValue: LocalCopies { LocalCopies() }
}

/// The working copy has edits: selecting another branch would overwrite them.
struct EditsPending: Error {}

// guide:begin workspace-client
extension WorkspaceClient where Source == Catalogue, ChangeSet == CatalogueChanges {
  /// The workspace client over the catalogue server. Every endpoint reads the capability
  /// Authoring validated, at the call, and the server stays the authority on it.
  static func catalogue(
    server: CatalogueServer, session: AppSession, capability: AuthoringCapabilityProvider,
    copies: LocalCopies
  ) -> Self {
    @Sendable func authorize(_ needed: AuthoringCapabilities) async throws -> (String, String) {
      guard let context = capability.current, context.capabilities.contains(needed),
        let token = session.current
      else { throw WorkspaceAuthorizationError.invalidated }
      do {
        try await server.check(grant: context.grant.rawValue, token: token)
      } catch {
        throw WorkspaceAuthorizationError.invalidated
      }
      return (context.grant.rawValue, token)
    }

    return Self(
      prepareSource: { id in
        _ = try await authorize(.edit)
        if let existing = copies[id] { return existing }  // never replace writable content
        let head = try await server.head(of: "main")
        let source = Catalogue(workspace: id, events: try await server.events(at: head))
        return copies.keep(WorkspaceSession(source: source, baseline: head))
      },
      refreshBaseline: { source, baseline in
        _ = try await authorize(.edit)
        let edits = CatalogueChanges(from: try await server.events(at: baseline), to: source.events)
        let head = try await server.head(of: baseline.branch)  // the same branch, newer revision
        var refreshed = source
        refreshed.events = edits.applied(to: try await server.events(at: head))
        return copies.keep(WorkspaceSession(source: refreshed, baseline: head))
      },
      selectBranch: { source, branch in
        _ = try await authorize(.edit)
        if let current = copies[source.workspace],
          !CatalogueChanges(from: try await server.events(at: current.baseline), to: source.events)
            .isEmpty
        {
          throw EditsPending()
        }
        let head = try await server.head(of: branch)  // exactly the requested branch
        let selected = Catalogue(
          workspace: source.workspace, events: try await server.events(at: head))
        return copies.keep(WorkspaceSession(source: selected, baseline: head))
      },
      captureChanges: { source, baseline in
        _ = try await authorize(.edit)
        _ = copies.keep(WorkspaceSession(source: source, baseline: baseline))
        return CatalogueChanges(from: try await server.events(at: baseline), to: source.events)
      },
      publishProposal: { source, baseline, changes, request in
        let (grant, token) = try await authorize(.publish)
        do {
          // Retry-safe: the server creates one record per idempotency key.
          return try await server.propose(
            changes.changed, against: baseline, key: request.idempotencyKey,
            grant: grant, token: token)
        } catch ServerError.headMoved(let expected, let actual) {
          throw WorkspaceHeadMismatch(
            expected: WorkspaceBranchReference(branch: baseline.branch, revision: expected),
            actual: WorkspaceBranchReference(branch: baseline.branch, revision: actual))
        } catch ServerError.unauthorized, ServerError.readOnly {
          throw WorkspaceAuthorizationError.invalidated
        }
      }
    )
  }
}
// guide:end

// guide:begin authoring-client
extension AuthoringClient {
  /// Admission and validation by the server's policy for the app's current session; the
  /// grant persisted in `persisted` (the device's storage).
  static func catalogue(
    server: CatalogueServer, session: AppSession, persisted: LockIsolated<AuthoringGrant?>
  ) -> Self {
    @Sendable func context(_ grant: String, _ token: String) async -> AuthoringContext {
      let user = await server.user(of: token) ?? ""
      return AuthoringContext(
        identity: AuthoringIdentity(rawValue: user), grant: AuthoringGrant(rawValue: grant),
        capabilities: [.edit, .publish])
    }
    return AuthoringClient(
      restorePersistedGrant: { persisted.current },
      clearIncomingSharedGrants: {},
      validate: { grant in
        guard let token = session.current else {
          throw AuthoringGrantRejected(reason: "signed out")
        }
        do {
          try await server.check(grant: grant.rawValue, token: token)
        } catch ServerError.readOnly(let reason) {
          throw AdmissionDenied(reason: reason)  // the same policy question admission asks
        } catch {
          throw AuthoringGrantRejected()
        }
        return await context(grant.rawValue, token)
      },
      requestAdmission: {
        guard let token = session.current else { throw AdmissionDenied(reason: "sign in first") }
        do {
          return await context(try await server.admit(token: token), token)
        } catch ServerError.readOnly(let reason) {
          throw AdmissionDenied(reason: reason)
        }
      },
      persist: { grant in persisted.setValue(grant) },
      discardPersistedGrant: { grant in persisted.withValue { if $0 == grant { $0 = nil } } },
      relinquish: { grant in await server.revoke(grant: grant.rawValue) }
    )
  }
}
// guide:end
