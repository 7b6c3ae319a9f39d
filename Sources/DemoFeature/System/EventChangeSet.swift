/// The difference between a working copy of the catalogue and the baseline it was prepared
/// against: the demo's `ChangeSet`. An ephemeral publication value, never stored as workspace
/// state.
public struct EventChangeSet: Sendable, Hashable, Codable {
  /// An event whose fields changed.
  public struct Edit: Sendable, Hashable, Codable {
    public var before: Event
    public var after: Event

    public init(before: Event, after: Event) {
      self.before = before
      self.after = after
    }
  }

  public var added: [Event]
  public var modified: [Edit]
  public var removed: [Event]

  public init(added: [Event] = [], modified: [Edit] = [], removed: [Event] = []) {
    self.added = added
    self.modified = modified
    self.removed = removed
  }

  /// `true` when the working copy equals the baseline.
  public var isEmpty: Bool { added.isEmpty && modified.isEmpty && removed.isEmpty }

  /// What changed from `baseline` to `working`, in the working copy's order.
  ///
  /// Complexity: O(n + m).
  public static func between(baseline: [Event], working: [Event]) -> Self {
    let before = Dictionary(baseline.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let workingIDs = Set(working.map(\.id))
    var changes = Self()
    for event in working {
      if let old = before[event.id] {
        if old != event { changes.modified.append(Edit(before: old, after: event)) }
      } else {
        changes.added.append(event)
      }
    }
    changes.removed = baseline.filter { !workingIDs.contains($0.id) }
    return changes
  }

  /// The ids of the events this change set touches that also changed between `base` (what
  /// it was made against) and `head` (where it would land): changed, added or removed on the
  /// other side. Empty when applying it to `head` loses nothing of either side.
  public func conflicts(base: [Event], head: [Event]) -> [String] {
    let before = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let now = Dictionary(head.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let touched = Set(added.map(\.id) + modified.map(\.before.id) + removed.map(\.id))
    return touched.filter { before[$0] != now[$0] }.sorted()
  }

  /// `events` with these changes applied (how a merge lands a proposal on its branch).
  public func applied(to events: [Event]) -> [Event] {
    let removedIDs = Set(removed.map(\.id))
    let replacements = Dictionary(
      modified.map { ($0.after.id, $0.after) }, uniquingKeysWith: { _, last in last })
    var result = events.filter { !removedIDs.contains($0.id) }.map { replacements[$0.id] ?? $0 }
    let present = Set(result.map(\.id))
    result.append(contentsOf: added.filter { !present.contains($0.id) })
    return result
  }
}

extension EventChangeSet: CustomStringConvertible {
  public var description: String {
    guard !isEmpty else { return "no changes" }
    var lines: [String] = []
    lines += added.map { "+ \($0)" }
    lines += modified.map { "~ \($0.before) → \($0.after)" }
    lines += removed.map { "- \($0)" }
    return lines.joined(separator: "\n")
  }
}
