import ComposableCore
import DemoHTTPProtocol
import Foundation
import HTTPTestSupport
import Testing
import WorkspaceDemoFeature
import WorkspaceHTTP

/// Proposal creation honours the IETF Idempotency-Key draft; the head rule is checked on the
/// server; merging is a reviewer's.
@Suite("Demo server: proposals")
struct ProposalTests {
  /// A `POST /v1/proposals` of `body` with `key`.
  private func create(_ body: DemoAPI.NewProposal, key: String?) throws -> HTTPRequest {
    var request = HTTPRequest.post(DemoAPI.proposals, body: try .json(body))
    if let key { request.headers["Idempotency-Key"] = "\"\(key)\"" }
    return request
  }

  @Test("A retry with the same key answers the same record (replayed); one record exists")
  func replay() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    let key = UUID().uuidString.lowercased()
    let first = try await session.send(try create(draft(grant.id), key: key))
    #expect(first.status == 201)
    let again = try await session.send(try create(draft(grant.id), key: key))
    #expect(again.status == 200)
    #expect(again.headers[DemoAPI.replayedHeader] == "true")
    #expect(try again.decode(DemoProposal.self) == first.decode(DemoProposal.self))
    #expect(try await server.system.allProposals().count == 1)
    #expect(server.service.announcementCount == 1, "a replay announces nothing")
  }

  @Test("The same key with another payload is 422; no key is 400; a key that is no UUID is 400")
  func misuse() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    let key = UUID().uuidString
    #expect(try await session.send(try create(draft(grant.id), key: key)).status == 201)
    let other = draft(
      grant.id,
      changes: EventChangeSet(removed: [
        Event(id: "e1", title: "Winter Concert", date: "2026-12-12", venue: "Town Hall")
      ]))
    let reused = try await session.send(try create(other, key: key))
    #expect(reused.status == 422)
    #expect(IntentAnswer.classify(reused) == .keyReusedWithOtherPayload)
    let missing = try await session.send(try create(draft(grant.id), key: nil))
    #expect(missing.status == 400)
    #expect(missing.text.contains("Idempotency-Key is missing"))
    #expect(try await session.send(try create(draft(grant.id), key: "not-a-uuid")).status == 400)
    #expect(try await server.system.allProposals().count == 1)
  }

  @Test("The fingerprint is the whole payload: another title or summary under a key is 422")
  func fingerprintCoversThePayload() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    let key = UUID().uuidString
    let original = draft(grant.id, title: "Talk")
    #expect(try await session.send(try create(original, key: key)).status == 201)
    var retitled = original
    retitled.title = "Another talk"
    var resummarized = original
    resummarized.summary = "Another summary."
    for changed in [retitled, resummarized] {
      let answer = try await session.send(try create(changed, key: key))
      #expect(answer.status == 422)
      #expect(IntentAnswer.classify(answer) == .keyReusedWithOtherPayload)
    }
    // The grant is the authority the request is sent under, not its content.
    let admission = try await session.send(HTTPRequest(method: .post, path: DemoAPI.admissions))
    let regranted = try admission.decode(DemoAPI.Grant.self)
    #expect(regranted.id != grant.id)
    var underNewGrant = original
    underNewGrant.grant = regranted.id
    let replayed = try await session.send(try create(underNewGrant, key: key))
    #expect(replayed.status == 200)
    #expect(replayed.headers[DemoAPI.replayedHeader] == "true")
    #expect(try replayed.decode(DemoProposal.self).title == "Talk")
    #expect(try await server.system.allProposals().count == 1)
  }

  @Test("Keys are scoped to the caller: another person's key is a key of their own")
  func keysAreScopedToTheCaller() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (ada, adaGrant) = try await server.author()
    let (grace, graceGrant) = try await server.author("grace", "hopper")
    let key = UUID().uuidString
    let adas = try await ada.send(try create(draft(adaGrant.id), key: key))
    #expect(adas.status == 201)
    let graces = try await grace.send(try create(draft(graceGrant.id), key: key))
    #expect(graces.status == 201, "grace was answered with ada's record")
    #expect(graces.headers[DemoAPI.replayedHeader] == nil)
    let record = try graces.decode(DemoProposal.self)
    #expect(record.author == "grace")
    #expect(record.id != (try adas.decode(DemoProposal.self).id))
    #expect(try await server.system.allProposals().map(\.author) == ["ada", "grace"])
  }

  @Test("A listing shows each idempotency key to the record's author only")
  func keysAreNotReadable() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (ada, grant) = try await server.author()
    let key = UUID()
    #expect(try await ada.send(try create(draft(grant.id), key: key.uuidString)).status == 201)
    let (grace, _) = try await server.signIn("grace", "hopper")
    let anonymous = server.session()
    for path in [DemoAPI.reviewProposals, DemoAPI.reviewProposal("P1")] {
      for (reader, sees) in [(ada, Optional(key)), (grace, nil), (anonymous, nil)] {
        let answer = try await reader.send(.get(path, access: .public))
        #expect(answer.status == 200)
        let keys =
          path == DemoAPI.reviewProposals
          ? try answer.decode([DemoProposal].self).map(\.idempotencyKey)
          : [try answer.decode(DemoProposal.self).idempotencyKey]
        #expect(keys == [sees], "\(path)")
        #expect(!answer.text.lowercased().contains(key.uuidString.lowercased()) || sees != nil)
      }
    }
  }

  @Test("While the first request with a key is in flight, another with it is answered 409")
  func inFlight() async throws {
    let entered = Signal()
    let release = Signal()
    let held = LockIsolated(false)
    let server = try TestServer(
      configuration: .init(beforeRecordCreation: { _ in
        // Only the first creation is held.
        let first = held.withValue { wasHeld -> Bool in
          defer { wasHeld = true }
          return !wasHeld
        }
        guard first else { return }
        entered.fire()
        try? await release.wait(seconds: 20, "the test to release the first creation")
      }))
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    // The retry comes from another connection (URLSession queues requests on a busy one).
    let (retrying, otherGrant) = try await server.author()
    let key = UUID().uuidString
    let request = try create(draft(grant.id), key: key)
    let first = Task { try await session.send(request) }
    try await entered.wait(seconds: 10, "the first creation to be in flight")
    let second = try await retrying.send(try create(draft(otherGrant.id), key: key))
    #expect(second.status == 409)
    #expect(IntentAnswer.classify(second) == .inFlight)
    release.fire()
    #expect(try await first.value.status == 201)
    #expect(try await session.send(request).status == 200, "once it finished, a retry replays it")
    #expect(try await server.system.allProposals().count == 1)
  }

  @Test("A proposal whose branch moved is refused with 412 and both heads; nothing is created")
  func headMoved() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    let landed = try await session.send(
      try create(draft(grant.id, title: "First"), key: UUID().uuidString))
    let first = try landed.decode(DemoProposal.self)
    #expect(
      try await session.send(HTTPRequest(method: .post, path: DemoAPI.merge(first.id))).status
        == 200)
    let stale = draft(
      grant.id, title: "Stale",
      changes: EventChangeSet(added: [
        Event(id: "e8", title: "Late", date: "2027-01-01", venue: "Hall")
      ]))
    let refused = try await session.send(try create(stale, key: UUID().uuidString))
    #expect(refused.status == 412)
    let problem = try #require(refused.problem)
    #expect(problem.code == .headMoved)
    #expect(problem.branch == "published" && problem.expected == "r1" && problem.actual == "r2")
    #expect(try await server.system.allProposals().count == 1)
  }

  @Test("A grant the server no longer honours is 403; a read naming it too")
  func revokedGrant() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (session, grant) = try await server.author()
    try await server.system.revokeAllGrants()
    let refused = try await session.send(try create(draft(grant.id), key: UUID().uuidString))
    #expect(refused.status == 403)
    #expect(refused.problem?.code == .grantInvalid)
    var read = HTTPRequest.get(DemoAPI.branch("published"))
    read.headers[DemoAPI.grantHeader] = grant.id
    #expect(try await session.send(read).problem?.code == .grantInvalid)
    #expect(try await server.system.allProposals().isEmpty)
  }

  @Test("Merging needs a reviewer; a merged proposal is not merged again")
  func merge() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (ada, grant) = try await server.author()
    let created = try await ada.send(try create(draft(grant.id), key: UUID().uuidString))
    let id = try created.decode(DemoProposal.self).id
    let (linus, _) = try await server.signIn("linus", "torvalds")
    let refused = try await linus.send(HTTPRequest(method: .post, path: DemoAPI.merge(id)))
    #expect(refused.status == 403)
    #expect(refused.problem?.code == .notReviewer)
    let merged = try await ada.send(HTTPRequest(method: .post, path: DemoAPI.merge(id)))
    #expect(
      try merged.decode(DemoAPI.Merged.self)
        == DemoAPI.Merged(proposal: id, branch: "published", revision: "r2"))
    let again = try await ada.send(HTTPRequest(method: .post, path: DemoAPI.merge(id)))
    #expect(again.status == 409)
    #expect(again.problem?.code == .notOpen)
    #expect(try await ada.send(HTTPRequest(method: .post, path: DemoAPI.merge("P9"))).status == 404)
    let record = try await ada.send(.get(DemoAPI.reviewProposal(id), access: .public))
    #expect(try record.decode(DemoProposal.self).status == .merged(into: "r2"))
  }

  @Test("Admission follows the policy; a grant validates for its own session only")
  func admission() async throws {
    let server = try TestServer()
    defer { Task { await server.stop() } }
    let (linus, _) = try await server.signIn("linus", "torvalds")
    let denied = try await linus.send(HTTPRequest(method: .post, path: DemoAPI.admissions))
    #expect(denied.status == 403)
    #expect(denied.problem?.code == .admissionDenied)
    #expect(denied.problem?.detail == "Linus may read but not author")
    let (ada, grant) = try await server.author()
    #expect(grant.capabilities == ["edit", "publish"])
    #expect(try await ada.send(.get(DemoAPI.grant(grant.id))).status == 200)
    #expect(try await linus.send(.get(DemoAPI.grant(grant.id))).problem?.code == .grantInvalid)
    // Linus cannot give up Ada's grant; Ada can.
    #expect(
      try await linus.send(HTTPRequest(method: .delete, path: DemoAPI.grant(grant.id))).status
        == 204)
    #expect(try await ada.send(.get(DemoAPI.grant(grant.id))).status == 200)
    #expect(
      try await ada.send(HTTPRequest(method: .delete, path: DemoAPI.grant(grant.id))).status == 204)
    #expect(try await ada.send(.get(DemoAPI.grant(grant.id))).problem?.code == .grantInvalid)
  }
}
