import ComposableWorkspace
import Foundation
import WorkspaceHTTP

/// The line every check-in of a proposal carries in its comment, so the proposal says itself
/// which attempt made it, what it targets and which change set it holds:
///
/// ```text
/// Add the poetry evening
///
/// Proposed from the demo.
///
/// [workspace proposal 5c0f… · target published@9d1e… · change set 3f2a9c0d1b7e4a55 · 1/1]
/// ```
struct ProposalMarker: Equatable, Sendable {
  /// The attempt's idempotency key.
  var key: UUID
  /// The baseline it targets.
  var target: WorkspaceBranchReference
  /// A digest of the change set (its baseline and each file's path, captured content and
  /// executable bit).
  var changes: String

  init(key: UUID, target: WorkspaceBranchReference, changes: String) {
    self.key = key
    self.target = target
    self.changes = changes
  }

  init(key: UUID, target: WorkspaceBranchReference, changeSet: FossilChangeSet) {
    var text = changeSet.baseline + "\n"
    for change in changeSet.changes {
      switch change {
      case .added(let path, let content, let executable),
        .modified(let path, let content, let executable):
        text += "\(change.description.prefix(1)) \(content) \(executable ? "x" : "-") \(path)\n"
      case .deleted(let path):
        text += "D \(path)\n"
      }
    }
    self.init(
      key: key, target: target, changes: String(SHA256.hash(Array(text.utf8)).hexString.prefix(16)))
  }

  /// The comment of file `index` (from 1) of `count`.
  func comment(title: String, summary: String, index: Int, count: Int) -> String {
    let heading = title.trimmingCharacters(in: .whitespacesAndNewlines)
    let body = summary.trimmingCharacters(in: .whitespacesAndNewlines)
    let fields = [
      key.uuidString.lowercased(), "target \(target)", "change set \(changes)", "\(index)/\(count)",
    ]
    let line = "[workspace proposal " + fields.joined(separator: " · ") + "]"
    return [heading, body, line].filter { !$0.isEmpty }.joined(separator: "\n\n")
  }

  /// The marker a comment carries, if any.
  static func parse(_ comment: String?) -> ProposalMarker? {
    guard let comment else { return nil }
    for line in comment.split(whereSeparator: \.isNewline).reversed()
    where line.hasPrefix("[workspace proposal ") && line.hasSuffix("]") {
      let fields = line.dropFirst("[workspace proposal ".count).dropLast()
        .components(separatedBy: " · ")
      guard fields.count == 4, let key = UUID(uuidString: fields[0]),
        fields[1].hasPrefix("target "), fields[2].hasPrefix("change set ")
      else { continue }
      let target = String(fields[1].dropFirst("target ".count))
      guard let separator = target.lastIndex(of: "@") else { continue }
      return ProposalMarker(
        key: key,
        target: WorkspaceBranchReference(
          branch: BranchName(String(target[..<separator])),
          revision: String(target[target.index(after: separator)...])),
        changes: String(fields[2].dropFirst("change set ".count)))
    }
    return nil
  }

  /// The title of a proposal check-in's comment (its first line), without the marker.
  static func title(of comment: String?) -> String {
    let first = comment?.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return first.hasPrefix("[workspace proposal ") ? "" : first
  }

  /// The marker line of a reviewer's merge check-in of `proposal`.
  static func mergeLine(of proposal: String) -> String { "[workspace merge of \(proposal)]" }
}
