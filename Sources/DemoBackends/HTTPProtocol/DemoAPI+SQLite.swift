import ComposableWorkspace
import Foundation

extension DemoAPI {
  /// The SQLite remote's protocol, served by a server that keeps its data in SQLite
  /// (`demo-cli serve --database FILE`): branch heads, revisions as database images, proposals
  /// as changesets, the reviewer's merge — what a `SQLiteWorkspaceClient` needs of a remote.
  /// Reads are public; creating a proposal is a session call under a grant, with an
  /// `Idempotency-Key`; merging needs a reviewer. A server without a database answers 404.
  public enum SQLite {
    /// `GET`: every proposal (a record's idempotency key is shown to its author only);
    /// `POST` ``NewProposal``: creates one (201; 200 replaying a retry of the same key).
    public static let proposals = "/v1/sqlite/proposals"

    /// `GET`: the head of `branch` (a `WorkspaceBranchReference`).
    public static func head(of branch: String) -> String {
      "/v1/sqlite/branches/\(segment(branch))"
    }

    /// `GET`: revision `id`'s database, as a database file's bytes
    /// (``imageContentType``).
    public static func revision(_ id: String) -> String {
      "/v1/sqlite/revisions/\(segment(id))"
    }

    /// `POST`: merges proposal `id`; answers its branch's new head (409 `merge_conflict`
    /// when its rows changed on the branch since).
    public static func merge(_ id: String) -> String {
      "/v1/sqlite/proposals/\(segment(id))/merge"
    }

    /// The routes, with their parameters.
    public enum Pattern {
      public static let head = "/v1/sqlite/branches/{branch}"
      public static let revision = "/v1/sqlite/revisions/{revision}"
      public static let merge = "/v1/sqlite/proposals/{id}/merge"
    }

    /// The media type of a revision's database image.
    public static let imageContentType = "application/vnd.sqlite3"

    /// The body of `POST /v1/sqlite/proposals`.
    public struct NewProposal: Codable, Sendable, Equatable {
      public var grant: String
      public var title: String
      public var summary: String
      /// The exact revision the changes were captured against.
      public var target: WorkspaceBranchReference
      /// The session extension's changeset (base64 in JSON).
      public var changeset: Data

      public init(
        grant: String, title: String, summary: String, target: WorkspaceBranchReference,
        changeset: Data
      ) {
        self.grant = grant
        self.title = title
        self.summary = summary
        self.target = target
        self.changeset = changeset
      }
    }
  }
}
