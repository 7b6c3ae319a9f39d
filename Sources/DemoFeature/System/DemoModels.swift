import Foundation

/// A demo account. Passwords exist only in this seed list, never in a state file.
public struct DemoAccount: Sendable, Hashable {
  public let username: String
  public let displayName: String
  /// The account's password: a live backend (a Fossil server the demo creates) is given its
  /// accounts from this list.
  public let password: String
  /// The admission policy: authors may edit and propose; readers may only read.
  public let mayAuthor: Bool

  /// The seeded accounts: ada and grace author; linus only reads.
  public static let all = [
    DemoAccount(username: "ada", displayName: "Ada", password: "lovelace", mayAuthor: true),
    DemoAccount(username: "grace", displayName: "Grace", password: "hopper", mayAuthor: true),
    DemoAccount(username: "linus", displayName: "Linus", password: "torvalds", mayAuthor: false),
  ]
}

/// A signed-in application session.
public struct DemoSession: Sendable, Hashable, Codable {
  public let token: String
  public let username: String

  public init(token: String, username: String) {
    self.token = token
    self.username = username
  }
}

/// An authoring grant issued to one session.
public struct DemoGrant: Sendable, Hashable, Codable {
  public let id: String
  public let username: String
  public let sessionToken: String

  public init(id: String, username: String, sessionToken: String) {
    self.id = id
    self.username = username
    self.sessionToken = sessionToken
  }
}

/// One revision of a branch: an immutable snapshot of its events.
public struct DemoRevision: Sendable, Hashable, Codable {
  public let id: String
  public let events: [Event]

  public init(id: String, events: [Event]) {
    self.id = id
    self.events = events
  }
}

/// A proposal record.
public struct DemoProposal: Sendable, Hashable, Codable {
  public enum Status: Sendable, Hashable, Codable {
    case open
    case merged(into: String)
  }

  public let id: String
  public let title: String
  public let author: String
  public let branch: String
  /// The revision the proposal targets (the author's baseline).
  public let baseRevision: String
  /// Identifies the proposed content: the same base and changes give the same value.
  public let contentRevision: String
  public let changes: EventChangeSet
  /// The key its author's client created it under: `nil` where the reader may not see it (a
  /// listing shows a record's key to its author only) or the remote does not keep one.
  public var idempotencyKey: UUID?
  public var status: Status

  public init(
    id: String, title: String, author: String, branch: String, baseRevision: String,
    contentRevision: String, changes: EventChangeSet, idempotencyKey: UUID?, status: Status
  ) {
    self.id = id
    self.title = title
    self.author = author
    self.branch = branch
    self.baseRevision = baseRevision
    self.contentRevision = contentRevision
    self.changes = changes
    self.idempotencyKey = idempotencyKey
    self.status = status
  }

  /// A short, stable digest of the base revision and the changes (FNV-1a over canonical JSON).
  static func contentRevision(base: String, changes: EventChangeSet) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes = Array(base.utf8) + ((try? encoder.encode(changes)).map(Array.init) ?? [])
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "c" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
  }
}

/// What the demo backend says no with.
public enum DemoError: Error, Equatable, Sendable, CustomStringConvertible {
  case unknownAccount(String)
  case wrongPassword(String)
  case sessionExpired
  case admissionDenied(String)
  case grantInvalid
  case noSuchBranch(String)
  case noSuchRevision(branch: String, revision: String)
  case headMoved(branch: String, expected: String, actual: String)
  case idempotencyConflict(UUID)
  case noSuchProposal(String)
  case proposalNotOpen(String)
  /// The system has handed out every session (or grant) number it may: a state file at its
  /// limit, which the system refuses to count past rather than write one it cannot read.
  case counterExhausted(String)
  /// The proposal changes events its branch changed too since its base: nothing was merged.
  case mergeConflict(proposal: String, events: [String])
  /// The system could not read or write what it keeps (a server's database): nothing changed.
  case unavailable(String)

  public var description: String {
    switch self {
    // The name is not repeated: a password typed in its place (`signin lovelace ada`) would be.
    case .unknownAccount: "there is no such account"
    case .wrongPassword(let name): "wrong password for \(name)"
    case .sessionExpired: "the session has ended; sign in again"
    case .admissionDenied(let reason): "admission denied: \(reason)"
    case .grantInvalid: "the authoring grant is no longer valid"
    case .noSuchBranch(let branch): "there is no branch named \(branch)"
    case .noSuchRevision(let branch, let revision): "\(branch) has no revision \(revision)"
    case .headMoved(let branch, let expected, let actual):
      "\(branch) moved from \(expected) to \(actual)"
    case .idempotencyConflict(let key): "idempotency key \(key) was used for other content"
    case .noSuchProposal(let id): "there is no proposal \(id)"
    case .proposalNotOpen(let id): "proposal \(id) is not open"
    case .counterExhausted(let kind):
      "the system has handed out its last \(kind) number; start from a fresh state file"
    case .mergeConflict(let proposal, let events):
      "proposal \(proposal) changes events its branch changed since: "
        + events.joined(separator: ", ") + "; nothing was merged"
    case .unavailable(let reason): "the system is unavailable: \(reason)"
    }
  }
}

/// The persistent part of the demo system (no passwords).
public struct DemoSystemSnapshot: Sendable, Codable, Equatable {
  var branches: [String: [DemoRevision]]
  var proposals: [DemoProposal] = []
  var sessions: [String: String] = [:]
  var grants: [String: DemoGrant] = [:]
  var lastTokenNumber = 0
  var lastGrantNumber = 0

  /// The seeded catalogue: "published" with three events, "festival" with two.
  public static let seed = DemoSystemSnapshot(branches: [
    "published": [
      DemoRevision(
        id: "r1",
        events: [
          Event(id: "e1", title: "Winter Concert", date: "2026-12-12", venue: "Town Hall"),
          Event(id: "e2", title: "Book Fair", date: "2027-01-16", venue: "Library"),
          Event(id: "e3", title: "Science Night", date: "2027-02-06", venue: "Museum"),
        ])
    ],
    "festival": [
      DemoRevision(
        id: "r1",
        events: [
          Event(id: "f1", title: "Opening Parade", date: "2027-06-01", venue: "Main Street"),
          Event(id: "f2", title: "Jazz on the Green", date: "2027-06-02", venue: "Park"),
        ])
    ],
  ])
}
