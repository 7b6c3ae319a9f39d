import DemoHTTPProtocol
import LoopbackHTTPServer
import WorkspaceDemoFeature

/// The published catalogue and the proposal listings (reads).
extension Endpoints {
  /// `GET /v1/branches`.
  func branches(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      do throws(DemoError) {
        var branches: [DemoAPI.Branch] = []
        for name in try await system.branches() {
          branches.append(DemoAPI.Branch(name: name, head: try await system.head(of: name).id))
        }
        return .encoded(branches)
      } catch {
        return Self.refusal(error)
      }
    }
  }

  /// `GET /v1/branches/{branch}`: the head revision with its events.
  func head(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      let branch = request.pathParameters["branch"] ?? ""
      do throws(DemoError) {
        let head = try await system.head(of: branch)
        return .encoded(DemoAPI.Revision(branch: branch, id: head.id, events: head.events))
      } catch {
        return Self.refusal(error)
      }
    }
  }

  /// `GET /v1/branches/{branch}/revisions/{revision}`.
  func revision(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      let branch = request.pathParameters["branch"] ?? ""
      do throws(DemoError) {
        let revision = try await system.revision(
          request.pathParameters["revision"] ?? "", of: branch)
        return .encoded(DemoAPI.Revision(branch: branch, id: revision.id, events: revision.events))
      } catch {
        return Self.refusal(error)
      }
    }
  }

  /// `GET /v1/proposals`: the listing, which shows a new record only after the system's
  /// projection lag. Each record's idempotency key is shown to its author only.
  func listing(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      do throws(DemoError) {
        return .encoded(await visible(try await system.listProposals(), to: request))
      } catch {
        return Self.refusal(error)
      }
    }
  }

  /// `GET /v1/review/proposals`: every record, at once.
  func records(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      do throws(DemoError) {
        return .encoded(await visible(try await system.allProposals(), to: request))
      } catch {
        return Self.refusal(error)
      }
    }
  }

  /// `GET /v1/review/proposals/{id}`.
  func record(_ request: HTTPServerRequest) async -> HTTPServerResponse {
    await read(request) {
      let id = request.pathParameters["id"] ?? ""
      do throws(DemoError) {
        guard let proposal = try await system.allProposals().first(where: { $0.id == id }) else {
          return Self.refusal(.noSuchProposal(id))
        }
        return .encoded(Self.shown(proposal, to: await readerName(of: request)))
      } catch {
        return Self.refusal(error)
      }
    }
  }

  /// `proposals` as the caller of `request` may see them: an idempotency key is shown to the
  /// record's author only (anyone else, signed in or not, sees none).
  private func visible(
    _ proposals: [DemoProposal], to request: HTTPServerRequest
  ) async -> [DemoProposal] {
    let reader = await readerName(of: request)
    return proposals.map { Self.shown($0, to: reader) }
  }

  private static func shown(_ proposal: DemoProposal, to reader: String?) -> DemoProposal {
    var shown = proposal
    if proposal.author != reader { shown.idempotencyKey = nil }
    return shown
  }

  /// The username of the session `request` carries a cookie of, if any.
  func readerName(of request: HTTPServerRequest) async -> String? {
    guard let session = sessions.session(for: request) else { return nil }
    return try? await system.account(token: session.token).username
  }
}
