import DemoHTTPProtocol
import Foundation
import HTTPMessages
import LoopbackHTTPServer
import WorkspaceDemoFeature

/// Creating proposals (idempotently) and merging them.
extension Endpoints {
  /// `POST /v1/proposals`, under the grant its body names, with an `Idempotency-Key` (a UUID)
  /// — the IETF draft's semantics, keys scoped to the caller (another person's key is a key of
  /// their own: it never answers with someone else's record):
  /// - the first request creates the record: 201 (and announces it);
  /// - a retry with the same key and payload answers that record: 200, `Idempotent-Replayed`;
  /// - a request while the first with its key is still being processed: 409 (retry later);
  /// - the same key with another payload (any field but the grant): 422; no key: 400.
  ///
  /// When the branch no longer stands at the proposal's base, nothing is created: 412 with
  /// both heads (a retry of a record created before the branch moved still answers it).
  func createProposal(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await asSession(request) { caller in
      guard let header = request.headers["Idempotency-Key"],
        let key = IdempotencyKey(headerValue: header)
      else { return .idempotency(.keyMissing) }
      guard let uuid = UUID(uuidString: key.rawValue) else {
        return .problem(
          400, .invalidBody, "Invalid Idempotency-Key", "the Idempotency-Key must be a UUID")
      }
      guard let draft = try? JSONDecoder().decode(DemoAPI.NewProposal.self, from: request.body)
      else {
        return .problem(400, .invalidBody, "Invalid proposal", "the body is not a proposal")
      }
      if let refusal = await checkGrant(draft.grant, of: caller) { return refusal }
      let author = caller.account.username
      let scopedKey = "\(author) \(uuid.uuidString)"
      guard inFlight.claim(scopedKey) else { return .idempotency(.inFlight) }
      defer { inFlight.release(scopedKey) }
      guard fingerprints.admit(draft, under: scopedKey) else {
        return .idempotency(.keyReused)
      }
      await configuration.beforeRecordCreation(key.rawValue)
      let existed: Bool
      do throws(DemoError) {
        existed = try await system.proposal(author: author, key: uuid) != nil
      } catch {
        return Self.refusal(error)
      }
      do throws(DemoError) {
        let proposal = try await system.createProposal(
          grantID: draft.grant, token: caller.session.token,
          key: uuid, title: draft.title, branch: draft.branch, base: draft.base,
          changes: draft.changes)
        guard !existed else {
          var replay = HTTPServerResponse.encoded(proposal)
          replay.headers[DemoAPI.replayedHeader] = "true"
          return replay
        }
        announcements.append(
          DemoAPI.Announcement(
            kind: .proposed, proposal: proposal.id, title: proposal.title,
            author: proposal.author, branch: proposal.branch, revision: proposal.baseRevision))
        return .encoded(proposal, status: 201)
      } catch {
        if !existed { fingerprints.forget(scopedKey) }
        return Self.refusal(error)
      }
    }
  }

  /// `POST /v1/review/proposals/{id}/merge`: a reviewer (an account the policy lets author)
  /// lands an open proposal on its branch; announces it.
  func merge(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await asSession(request) { caller in
      guard caller.account.mayAuthor else {
        return .problem(
          403, .notReviewer, "Not a reviewer", "\(caller.account.displayName) may not merge")
      }
      let id = request.pathParameters["id"] ?? ""
      do throws(DemoError) {
        let revision = try await system.merge(proposalID: id)
        guard let proposal = try await system.allProposals().first(where: { $0.id == id }) else {
          return Self.refusal(.noSuchProposal(id))
        }
        announcements.append(
          DemoAPI.Announcement(
            kind: .merged, proposal: id, title: proposal.title, author: proposal.author,
            branch: proposal.branch, revision: revision.id))
        return .encoded(
          DemoAPI.Merged(proposal: id, branch: proposal.branch, revision: revision.id))
      } catch {
        return Self.refusal(error)
      }
    }
  }
}
