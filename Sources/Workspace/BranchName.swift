/// The name of a branch in the integrator's storage (a Git branch, a Fossil branch, a
/// published catalogue channel…).
///
/// ```swift
/// store.send(.selectBranch("published"))
/// ```
public struct BranchName: StringIdentifier {
  /// The branch's name as the integrator spells it.
  public var rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }
}
