import ComposableAuthoring
import Foundation
import WorkspaceHTTP

/// Authoring admission decided by the Fossil server: a user who may check in (capability `i`,
/// or `a`/`s`, which imply it) is admitted to edit and publish; anyone else is denied with a
/// reason. Always asked of the server now (`/json/cap`), never taken from what sign-in said.
///
/// The grant is `<login>@<project code>`: it names who and which repository, and is no secret
/// (the login cookie never leaves the session's jar), so an app may persist it. It validates
/// only while the same user is signed in to the same repository.
///
/// ```swift
/// let admission = FossilAdmission(session: session)
/// let authoring = AuthoringClient(
///   restorePersistedGrant: { storage.grant },
///   clearIncomingSharedGrants: { storage.incoming = nil },
///   validate: admission.validate,
///   requestAdmission: admission.requestAdmission,
///   persist: { storage.grant = $0 },
///   discardPersistedGrant: { grant in if storage.grant == grant { storage.grant = nil } },
///   relinquish: { _ in })   // a Fossil grant is not issued, so there is nothing to give back
/// ```
public struct FossilAdmission: Sendable {
  /// The session whose user is admitted.
  public let session: FossilSession

  public init(session: FossilSession) {
    self.session = session
  }

  /// Admits the signed-in user when they may check in.
  ///
  /// - Throws: `AdmissionDenied` when no one is signed in or the user may not check in.
  @Sendable public func requestAdmission() async throws -> AuthoringContext {
    let user: FossilUser
    do {
      user = try await session.currentUser()
    } catch HTTPSessionError.signedOut {
      throw AdmissionDenied(reason: "not signed in to the Fossil server; sign in first")
    }
    return try context(for: user, grant: try await grant(for: user.name))
  }

  /// Validates `grant` for the signed-in user.
  ///
  /// - Throws: `AuthoringGrantRejected` when it is another user's or another repository's;
  ///   `AdmissionDenied` when the user may no longer check in; `HTTPSessionError.signedOut`
  ///   (the grant stays persisted) when no one is signed in now.
  @Sendable public func validate(_ grant: AuthoringGrant) async throws -> AuthoringContext {
    let user = try await session.currentUser()
    guard grant == (try await self.grant(for: user.name)) else {
      throw AuthoringGrantRejected(
        reason: "the grant is not \(user.name)'s on this repository")
    }
    return try context(for: user, grant: grant)
  }

  private func grant(for name: String) async throws -> AuthoringGrant {
    AuthoringGrant(rawValue: "\(name)@\(try await session.projectCode())")
  }

  private func context(for user: FossilUser, grant: AuthoringGrant) throws -> AuthoringContext {
    guard user.capabilities.mayCheckIn else {
      throw AdmissionDenied(
        reason: "\(user.name) may not check in to this repository "
          + "(capabilities \(user.capabilities)): read-only")
    }
    return AuthoringContext(
      identity: AuthoringIdentity(rawValue: user.name), grant: grant,
      capabilities: [.edit, .publish])
  }
}
