/// The captured difference between a workspace's writable content and its installed baseline,
/// as an integrator understands it: a database change manifest, a file patch, a document
/// snapshot.
///
/// A change set is an ephemeral value of one publication attempt (or one diff preview), never
/// durable workspace state. ``isEmpty`` decides the "no changes" outcome: an empty change set
/// is never sent to the remote.
///
/// ```swift
/// struct EventPatch: WorkspaceChangeSet, Equatable {
///   var edits: [EventEdit]
///   var isEmpty: Bool { edits.isEmpty }
/// }
/// ```
public protocol WorkspaceChangeSet: Sendable {
  /// Whether the writable content equals the baseline.
  var isEmpty: Bool { get }
}
