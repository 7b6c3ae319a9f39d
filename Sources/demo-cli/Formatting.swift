import ComposableAuthoring
import ComposableWorkspace
import DemoBackendInterface
import Foundation
import WorkspaceDemoFeature
import WorkspaceJournal

/// Readable text for the values the tool prints.
enum Describe {
  /// `ready at published@r1 · 3 events`, `inactive`, `preparing`, `preparation failed: …`.
  static func availability(_ availability: WorkspaceAvailability<EventWorkingCopy>) -> String {
    switch availability {
    case .inactive: "inactive"
    case .preparing: "preparing"
    case .preparationFailed(let failure): "preparation failed: \(failure.message)"
    case .ready(let session):
      "ready at \(reference(session.baseline)) · \(count(session.source.events.count, "event"))"
    }
  }

  /// `admitted as ada · grant grant-1 · may edit, publish`, `not admitted`, `denied: …`.
  static func admission(_ admission: AdmissionStatus) -> String {
    switch admission {
    case .notAdmitted: "not admitted"
    case .admitted(let context):
      "admitted as \(context.identity.rawValue) · grant \(context.grant.rawValue) · may \(capabilities(context.capabilities))"
    case .denied(let denial): "denied: \(denial.reason)"
    }
  }

  /// `edit, publish`, or `nothing`.
  static func capabilities(_ capabilities: AuthoringCapabilities) -> String {
    var names: [String] = []
    if capabilities.contains(.edit) { names.append("edit") }
    if capabilities.contains(.publish) { names.append("publish") }
    return names.isEmpty ? "nothing" : names.joined(separator: ", ")
  }

  /// `P1 · content c0123… · target published@r1`.
  static func record(_ record: ProposalRecord) -> String {
    "\(record.id) · content \(record.contentRevision) · target \(reference(record.target))"
  }

  /// `published@r1`; a commit hash is abbreviated: `published@1a2b3c4`.
  static func reference(_ reference: WorkspaceBranchReference) -> String {
    "\(reference.branch)@\(revision(reference.revision))"
  }

  /// `Published moved — refresh available: published@1a2b3c4 is the newest revision, the
  /// baseline is published@9f8e7d6`, when `head` is ahead of the workspace's baseline on its
  /// branch; `nil` when there is no such baseline or it is `head` already.
  static func branchHead(_ head: WorkspaceBranchReference, baseline: WorkspaceBranchReference?)
    -> String?
  {
    guard let baseline, baseline.branch == head.branch, baseline.revision != head.revision
    else { return nil }
    return "\(head.branch.rawValue.capitalized) moved — refresh available: \(reference(head)) "
      + "is the newest revision, the baseline is \(reference(baseline))"
  }

  /// A revision as people read it: a full commit hash (40 or 64 hex digits) is abbreviated
  /// to its first 7, anything else is kept.
  static func revision(_ revision: String) -> String {
    let isHash = (revision.count == 40 || revision.count == 64) && revision.allSatisfy(\.isHexDigit)
    return isHash ? String(revision.prefix(7)) : revision
  }

  /// The lines of a change set (`+ …`, `~ … → …`, `- …`), or `no changes`.
  static func changes(_ changes: EventChangeSet) -> [String] {
    changes.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// `+1 ~0 -2`, or `none`.
  static func changeCounts(_ changes: EventChangeSet) -> String {
    changes.isEmpty
      ? "none" : "+\(changes.added.count) ~\(changes.modified.count) -\(changes.removed.count)"
  }

  /// The proposal form's state.
  static func form(_ form: ProposalForm) -> String {
    switch form {
    case .idle: "idle"
    case .publishing(let request): "publishing “\(request.title)”"
    case .published(let record): "published \(Self.record(record))"
    case .noChanges: "nothing to propose (no changes)"
    case .failed(let request, let reason): "“\(request.title)” failed: \(reason) (retry possible)"
    case .interrupted(let request):
      "“\(request.title)” interrupted before the service answered (retry possible)"
    case .unconfirmed(let request):
      "“\(request.title)” created a record, but the service's answer was invalid"
    }
  }

  /// `“Talk” · key 1f0e… · against published@r1 · its outcome is not known; 'retry' sends it
  /// again with the same key`.
  static func intent(_ intent: PublicationIntent) -> String {
    "“\(intent.request.title)” · key \(intent.request.idempotencyKey.uuidString.lowercased())"
      + " · against \(reference(intent.baseline)) · its outcome is not known; 'retry' sends it"
      + " again with the same key"
  }

  /// A listed proposal: `P1 “Add the poetry evening” by ada · content … · target published@r1 · open`.
  static func proposal(_ proposal: DemoProposal) -> String {
    let status: String =
      switch proposal.status {
      case .open: "open"
      case .merged(let revision): "merged into \(Self.revision(revision))"
      }
    return
      "\(proposal.id) “\(proposal.title)” by \(proposal.author) · content \(proposal.contentRevision)"
      + " · target \(proposal.branch)@\(revision(proposal.baseRevision)) · \(status)"
  }

  /// A discussion's post: `ada, 2026-12-04 07:12 UTC: The hall is booked in April.` (its text
  /// on one line), marked when it waits for a moderator.
  static func post(_ post: DiscussionPost) -> String {
    let date = post.date.formatted(
      Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().dateTimeSeparator(.space)
        .time(includingFractionalSeconds: false))
    return "\(post.author), \(date) UTC: \(oneLine(post.text))"
      + (post.isAwaitingModeration ? " (awaiting moderation)" : "")
  }

  /// `text` with every full commit hash in it abbreviated (see ``revision(_:)``).
  static func abbreviatingHashes(_ text: String) -> String {
    text.split(separator: " ", omittingEmptySubsequences: false).map { word in
      let trimmed = word.trimmingCharacters(in: .punctuationCharacters)
      let short = revision(trimmed)
      return short == trimmed ? String(word) : word.replacingOccurrences(of: trimmed, with: short)
    }.joined(separator: " ")
  }

  /// `ada (session 5f0c2e9a)`: the account and a fingerprint of the session, never its token.
  static func session(_ session: DemoSession) -> String {
    "\(session.username) (session \(fingerprint(session.token)))"
  }

  /// Eight hex digits that tell sessions apart without revealing the token: a 32-bit digest
  /// (FNV-1a) of it. Not a secret, and not a way back to the token.
  static func fingerprint(_ token: String) -> String {
    let hash = FNV1a.hash("demo-cli session fingerprint\u{0}\(token)".utf8)
    let hex = String(hash >> 32, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }

  /// `text` on one line, safe for a terminal: its line breaks (LF, CRLF, CR — an ssh client
  /// ends lines with CRLF) joined with ` · `, tabs as spaces, other control characters (escape
  /// sequences from a remote) dropped.
  static func oneLine(_ text: String) -> String {
    let lines = text.replacingOccurrences(of: "\r\n", with: "\n")
      .split(whereSeparator: { $0 == "\n" || $0 == "\r" })
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    let joined = lines.joined(separator: " · ")
    return String(
      String.UnicodeScalarView(
        joined.unicodeScalars.compactMap { scalar in
          if scalar == "\t" { return " " }
          return scalar.properties.generalCategory == .control ? nil : scalar
        }))
  }

  /// `1 event`, `3 events`.
  static func count(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
  }
}
