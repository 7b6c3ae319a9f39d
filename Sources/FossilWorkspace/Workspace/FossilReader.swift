import ComposableCore
import ComposableWorkspace
import Foundation
import WorkspaceHTTP

/// Read-only access to a Fossil repository's history over HTTP, for hosts and reviewers: a
/// branch's newest check-in, the branches, a file's content at a check-in. Check-ins and file
/// contents never change, so what was read once is remembered.
///
/// Its reads are public calls by default: they carry the session's cookie when there is one,
/// work signed out when the server lets `nobody` read, and never end the session.
///
/// ```swift
/// let reader = FossilReader(session: session)
/// if let head = try await reader.head(of: "trunk"),
///   let readme = try await reader.contents(of: "README.md", at: head) { … }
/// ```
public struct FossilReader: Sendable {
  let repository: FossilRepository
  private let manifests = LockIsolated<[String: [String: FossilManifest.Entry]]>([:])
  private let contents = LockIsolated<[String: Data]>([:])

  /// A reader over `session`, its reads made with `access`.
  public init(session: FossilSession, access: HTTPRequest.Access = .public) {
    repository = FossilRepository(session: session, access: access)
  }

  /// The newest check-in of `branch`, or `nil` when there is no such branch.
  public func head(of branch: BranchName) async throws -> String? {
    try await repository.head(of: branch.rawValue)?.uuid
  }

  /// Every branch, closed ones and proposals included, sorted.
  public func branches() async throws -> [String] {
    try await repository.branches().sorted()
  }

  /// The content of file `path` at check-in `revision`, or `nil` when that check-in has no
  /// such file.
  ///
  /// - Throws: ``FossilError/notFound(request:)`` when there is no such check-in.
  public func contents(of path: String, at revision: String) async throws -> Data? {
    let checkIn =
      FossilRepository.isHash(revision) ? revision : try await repository.checkIn(revision).uuid
    let files: [String: FossilManifest.Entry]
    if let known = manifests.withValue({ $0[checkIn] }) {
      files = known
    } else {
      files = try await repository.files(of: checkIn)
      manifests.withValue { $0[checkIn] = files }
    }
    guard let entry = files[path] else { return nil }
    if let known = contents.withValue({ $0[entry.hash] }) { return known }
    let data = try await repository.artifact(entry.hash)
    contents.withValue { $0[entry.hash] = data }
    return data
  }
}
