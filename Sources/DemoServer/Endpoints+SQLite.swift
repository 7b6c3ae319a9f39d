import ComposableWorkspace
import DemoHTTPProtocol
import Foundation
import HTTPMessages
import LoopbackHTTPServer
import SQLiteWorkspace
import WorkspaceDemoFeature

/// The SQLite remote's protocol (``DemoAPI/SQLite``), served from a durable system's store:
/// what a `SQLiteWorkspaceClient` on another machine prepares, refreshes and publishes
/// against. Answers 404 on a server without a database.
extension Endpoints {
  /// The store, when the system keeps one (`serve --database`).
  private var store: SQLiteRemoteStore? { (system as? DurableDemoSystem)?.store }

  private static let noStore = HTTPServerResponse.notFound(
    "this server keeps no SQLite revisions (start it with 'demo-cli serve --database FILE')")

  /// `GET /v1/sqlite/branches/{branch}`.
  func sqliteHead(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      guard let store else { return Self.noStore }
      let branch = BranchName(request.pathParameters["branch"] ?? "")
      do {
        return .encoded(try await store.head(of: branch))
      } catch {
        return Self.sqliteRefusal(error)
      }
    }
  }

  /// `GET /v1/sqlite/revisions/{revision}`: the revision's database file.
  func sqliteRevision(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      guard let store else { return Self.noStore }
      do {
        let image = try await store.image(of: request.pathParameters["revision"] ?? "")
        var headers = HTTPHeaders()
        headers["Content-Type"] = DemoAPI.SQLite.imageContentType
        return HTTPServerResponse(status: 200, headers: headers, body: .bytes(image))
      } catch {
        return Self.sqliteRefusal(error)
      }
    }
  }

  /// `GET /v1/sqlite/proposals`: every record; its key shown to its author only.
  func sqliteProposals(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      guard let store else { return Self.noStore }
      do {
        let reader = await readerName(of: request)
        return .encoded(
          try await store.proposals().map { proposal in
            var shown = proposal
            if proposal.author != reader { shown.idempotencyKey = nil }
            return shown
          })
      } catch {
        return Self.sqliteRefusal(error)
      }
    }
  }

  /// `POST /v1/sqlite/proposals`, under the grant its body names, with an `Idempotency-Key`:
  /// the store creates the record once per key of its author (201; 200 and
  /// `Idempotent-Replayed` for a retry; 422 for the key with other content), or 412 with both
  /// heads when the branch moved, creating nothing.
  func sqlitePropose(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await asSession(request) { caller in
      guard let store else { return Self.noStore }
      guard let header = request.headers["Idempotency-Key"],
        let key = IdempotencyKey(headerValue: header), let uuid = UUID(uuidString: key.rawValue)
      else { return .idempotency(.keyMissing) }
      guard
        let draft = try? JSONDecoder().decode(DemoAPI.SQLite.NewProposal.self, from: request.body)
      else {
        return .problem(400, .invalidBody, "Invalid proposal", "the body is not a proposal")
      }
      if let refusal = await checkGrant(draft.grant, of: caller) { return refusal }
      let author = caller.account.username
      let scopedKey = "sqlite \(author) \(uuid.uuidString)"
      guard inFlight.claim(scopedKey) else { return .idempotency(.inFlight) }
      defer { inFlight.release(scopedKey) }
      do {
        let existed = try await store.proposals().contains {
          $0.author == author && $0.idempotencyKey == uuid
        }
        let record = try await store.propose(
          SQLiteProposalSubmission(
            idempotencyKey: uuid, title: draft.title, summary: draft.summary, author: author,
            target: draft.target, changeset: draft.changeset))
        guard !existed else {
          var replay = HTTPServerResponse.encoded(record)
          replay.headers[DemoAPI.replayedHeader] = "true"
          return replay
        }
        announcements.append(
          DemoAPI.Announcement(
            kind: .proposed, proposal: record.id, title: draft.title, author: author,
            branch: record.target.branch.rawValue, revision: record.target.revision))
        return .encoded(record, status: 201)
      } catch {
        return Self.sqliteRefusal(error)
      }
    }
  }

  /// `POST /v1/sqlite/proposals/{id}/merge`: a reviewer merges; answers the branch's new head.
  func sqliteMerge(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await asSession(request) { caller in
      guard let store else { return Self.noStore }
      guard caller.account.mayAuthor else {
        return .problem(
          403, .notReviewer, "Not a reviewer", "\(caller.account.displayName) may not merge")
      }
      let id = request.pathParameters["id"] ?? ""
      do {
        let head = try await store.merge(proposalID: id)
        if let proposal = try await store.proposals().first(where: { $0.record.id == id }) {
          announcements.append(
            DemoAPI.Announcement(
              kind: .merged, proposal: id, title: proposal.title, author: proposal.author,
              branch: head.branch.rawValue, revision: head.revision))
        }
        return .encoded(head)
      } catch {
        return Self.sqliteRefusal(error)
      }
    }
  }

  /// The answer to an error of the store.
  private static func sqliteRefusal(_ error: any Error) -> HTTPServerResponse {
    switch error {
    case let mismatch as WorkspaceHeadMismatch:
      return .problem(
        DemoAPI.Problem(
          status: 412, code: .headMoved, title: "The branch moved",
          detail: mismatch.description, branch: mismatch.expected.branch.rawValue,
          expected: mismatch.expected.revision, actual: mismatch.actual.revision))
    case let refusal as SQLiteWorkspaceError:
      switch refusal {
      case .branchNotFound, .revisionNotFound, .proposalNotFound:
        return .notFound(refusal.description)
      case .proposalKeyReused:
        return .idempotency(.keyReused)
      case .mergeConflict:
        return .problem(409, .mergeConflict, "Merge conflict", refusal.description)
      case .malformedChangeset:
        return .problem(400, .invalidBody, "Invalid changeset", refusal.description)
      default:
        return .problem(503, .other, "Unavailable", refusal.description)
      }
    default:
      return .problem(503, .other, "Unavailable", "\(error)")
    }
  }
}
