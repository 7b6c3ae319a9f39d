/// The one coherent pair a ready workspace holds: the editable source and the exact baseline
/// its working edits are compared against.
///
/// Rules:
/// - The pair is always coherent: ``source`` is the resource prepared for ``baseline``.
/// - ``source`` is owned by the workspace. Every later client operation receives this exact
///   value; integrators never swap it for another resource or replace its writable content.
/// - ``baseline`` changes only through `refreshBaseline` (revision only) and `selectBranch`
///   (another branch, exactly as requested). Publication never changes it.
///
/// For database-backed integrations, `Source` is the coherent database resource for the whole
/// editable workspace (the writable database plus a stable read-only reference reader).
public struct WorkspaceSession<Source: Sendable>: Sendable {
  /// The editable source (writable content, and whatever reference reader it carries).
  public var source: Source
  /// The exact branch revision working edits are compared against.
  public var baseline: WorkspaceBranchReference

  public init(source: Source, baseline: WorkspaceBranchReference) {
    self.source = source
    self.baseline = baseline
  }
}

extension WorkspaceSession: Equatable where Source: Equatable {}
extension WorkspaceSession: Hashable where Source: Hashable {}
extension WorkspaceSession: Codable where Source: Codable {}
