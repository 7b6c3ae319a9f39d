/// Who the Fossil server says is signed in, and what they may do.
///
/// ```swift
/// let user = try await session.signIn(name: "ada", password: password)
/// user.name                         // "ada"
/// user.capabilities.mayCheckIn      // true: may edit and propose
/// ```
public struct FossilUser: Hashable, Sendable, CustomStringConvertible {
  /// The login name; `nobody` when no one is signed in.
  public var name: String
  /// What the user may do.
  public var capabilities: FossilCapabilities

  public init(name: String, capabilities: FossilCapabilities) {
    self.name = name
    self.capabilities = capabilities
  }

  /// Fossil's name for "no one is signed in".
  public static let nobodyName = "nobody"

  /// Whether this is Fossil's `nobody` (no one signed in, or a token the server no longer
  /// honours).
  public var isNobody: Bool { name == Self.nobodyName }

  public var description: String { "\(name) (\(capabilities))" }
}

/// A Fossil user's capabilities: the raw capability letters the user row holds, and — when the
/// server was asked through `/json/cap` — the effective permissions, which also count what
/// `nobody` and `anonymous` grant everyone and what `a`/`s` imply.
///
/// Letters of interest: `i` check in, `o` check out (read files), `s` setup and `a` admin
/// (both imply the others).
public struct FossilCapabilities: Hashable, Sendable, CustomStringConvertible {
  /// The capability letters of the user's own row, e.g. `"io"`.
  public var letters: String
  /// Fossil's effective permission flags by name (`checkin`, `checkout`, …), when known.
  public var effective: [String: Bool]?

  public init(letters: String, effective: [String: Bool]? = nil) {
    self.letters = letters
    self.effective = effective
  }

  /// May check in: the capability authoring needs (edit and publish proposals).
  public var mayCheckIn: Bool { effective?["checkin"] ?? hasAny("isa") }

  /// May read the repository's files.
  public var mayCheckOut: Bool { effective?["checkout"] ?? hasAny("oisa") }

  /// May post on the forum without a moderator's approval (trusted forum poster `4`,
  /// moderator `5`/`6`, or `a`/`s`).
  public var mayPostUnmoderated: Bool {
    guard let effective else { return hasAny("456as") }
    return effective["writeTrustedForum"] == true || effective["moderateForum"] == true
  }

  private func hasAny(_ candidates: String) -> Bool {
    letters.contains { candidates.contains($0) }
  }

  /// `"io"`, or `none`.
  public var description: String { letters.isEmpty ? "none" : "\"\(letters)\"" }
}
