import WorkspaceDemoFeature

extension DemoAPI {
  /// `GET /v1/me`, and the answer to the code exchange: who the session belongs to.
  public struct Me: Codable, Sendable, Equatable {
    public var username: String
    public var displayName: String
    /// Whether the admission policy lets this account author (and review).
    public var mayAuthor: Bool
    /// A public handle of the session (not a credential: the server only honours cookies), so
    /// the app can tell one session from the next.
    public var session: String
    /// The id of the newest ``Announcement`` when the session began: the event stream resumes
    /// after it, so nothing announced since the sign-in is missed.
    public var lastEventID: String

    public init(
      username: String, displayName: String, mayAuthor: Bool, session: String,
      lastEventID: String
    ) {
      self.username = username
      self.displayName = displayName
      self.mayAuthor = mayAuthor
      self.session = session
      self.lastEventID = lastEventID
    }
  }

  /// An authoring grant: its id and what it allows.
  public struct Grant: Codable, Sendable, Equatable {
    public var id: String
    public var username: String
    /// `edit`, `publish`.
    public var capabilities: [String]

    public init(id: String, username: String, capabilities: [String]) {
      self.id = id
      self.username = username
      self.capabilities = capabilities
    }
  }

  /// A branch and its newest revision.
  public struct Branch: Codable, Sendable, Equatable {
    public var name: String
    public var head: String

    public init(name: String, head: String) {
      self.name = name
      self.head = head
    }
  }

  /// One revision of a branch with its events: a coherent baseline.
  public struct Revision: Codable, Sendable, Equatable {
    public var branch: String
    public var id: String
    public var events: [Event]

    public init(branch: String, id: String, events: [Event]) {
      self.branch = branch
      self.id = id
      self.events = events
    }
  }

  /// `POST /v1/proposals`: the changes of `base` on `branch` to propose, under `grant`. The
  /// grant is in the body (not in ``DemoAPI/grantHeader``) so that every retry of the
  /// idempotent intent carries exactly the same request.
  public struct NewProposal: Codable, Sendable, Equatable {
    public var grant: String
    public var title: String
    public var summary: String
    public var branch: String
    public var base: String
    public var changes: EventChangeSet

    public init(
      grant: String, title: String, summary: String, branch: String, base: String,
      changes: EventChangeSet
    ) {
      self.grant = grant
      self.title = title
      self.summary = summary
      self.branch = branch
      self.base = base
      self.changes = changes
    }
  }

  /// The answer to a merge: the branch's new head.
  public struct Merged: Codable, Sendable, Equatable {
    public var proposal: String
    public var branch: String
    public var revision: String

    public init(proposal: String, branch: String, revision: String) {
      self.proposal = proposal
      self.branch = branch
      self.revision = revision
    }
  }

  /// What the event stream announces: a proposal was created, or one was merged. The event's
  /// type is ``Kind-swift.enum``'s raw value, its data this value as JSON, its id a number.
  public struct Announcement: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
      case proposed
      case merged
    }

    public var kind: Kind
    public var proposal: String
    public var title: String
    public var author: String
    public var branch: String
    /// For `proposed`, the revision it targets; for `merged`, the branch's new head.
    public var revision: String

    public init(
      kind: Kind, proposal: String, title: String, author: String, branch: String,
      revision: String
    ) {
      self.kind = kind
      self.proposal = proposal
      self.title = title
      self.author = author
      self.branch = branch
      self.revision = revision
    }
  }
}
