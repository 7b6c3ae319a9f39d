import Foundation

extension DemoSystemSnapshot {
  /// The largest value a counter may reach (a billion sign-ins or grants): the system refuses
  /// to count past it, so a snapshot it writes always reads back.
  public static let largestCounter = 1_000_000_000

  /// The first rule of the system's state that this snapshot breaks, in words; `nil` when it
  /// keeps them all. A restored system relies on each one:
  /// - counters are within `0...largestCounter`;
  /// - sessions are `session-N` for an account, with `N` no larger than the token counter (a
  ///   smaller counter would hand out a live session's token again);
  /// - grants are `grant-N` under their own id, with `N` no larger than the grant counter, for
  ///   a live session of the same person;
  /// - each branch's revisions are `r1`, `r2`, … in order; proposals are `P1`, `P2`, … in
  ///   order, by an account, on a branch and base revision that exist, merged only into a
  ///   revision of their branch, each with an idempotency key its author used for no other one
  ///   (keys are scoped to their author).
  ///
  /// O(s + g + r + p) for s sessions, g grants, r revisions and p proposals.
  public func firstBrokenInvariant() -> String? {
    let accounts = Set(DemoAccount.all.map(\.username))
    for (name, counter) in [
      ("lastTokenNumber", lastTokenNumber), ("lastGrantNumber", lastGrantNumber),
    ]
    where !(0...Self.largestCounter).contains(counter) {
      return "\(name) \(counter) is outside 0…\(Self.largestCounter)"
    }
    for (token, username) in sessions.sorted(by: { $0.key < $1.key }) {
      guard let number = Self.number(token, prefix: "session-"), number <= lastTokenNumber else {
        return "session \(token) is not one the token counter (\(lastTokenNumber)) handed out"
      }
      guard accounts.contains(username) else { return "session \(token) is for no account" }
    }
    for (id, grant) in grants.sorted(by: { $0.key < $1.key }) {
      guard grant.id == id, let number = Self.number(id, prefix: "grant-"),
        number <= lastGrantNumber
      else {
        return "grant \(id) is not one the grant counter (\(lastGrantNumber)) handed out"
      }
      guard sessions[grant.sessionToken] == grant.username else {
        return "grant \(id) is not for a live session of \(grant.username)"
      }
    }
    for (branch, revisions) in branches.sorted(by: { $0.key < $1.key }) {
      guard !revisions.isEmpty else { return "branch \(branch) has no revision" }
      for (index, revision) in revisions.enumerated() where revision.id != "r\(index + 1)" {
        return "revision \(index + 1) of \(branch) is named \(revision.id)"
      }
    }
    var keys = Set<String>()
    for (index, proposal) in proposals.enumerated() {
      guard proposal.id == "P\(index + 1)" else {
        return "proposal \(index + 1) is named \(proposal.id)"
      }
      guard accounts.contains(proposal.author) else { return "\(proposal.id) has no author" }
      guard let revisions = branches[proposal.branch],
        revisions.contains(where: { $0.id == proposal.baseRevision })
      else { return "\(proposal.id) targets a revision that does not exist" }
      if case .merged(let revision) = proposal.status,
        !revisions.contains(where: { $0.id == revision })
      {
        return "\(proposal.id) is merged into a revision that does not exist"
      }
      if let key = proposal.idempotencyKey, !keys.insert("\(proposal.author) \(key)").inserted {
        return "\(proposal.id) reuses another proposal's idempotency key"
      }
    }
    return nil
  }

  /// `N` of `<prefix>N` (a positive whole number without leading zeros), or `nil`.
  private static func number(_ name: String, prefix: String) -> Int? {
    guard name.hasPrefix(prefix) else { return nil }
    let digits = name.dropFirst(prefix.count)
    guard let number = Int(digits), number > 0, String(number) == digits else { return nil }
    return number
  }
}
