import Foundation

/// How `Reducer._printChanges(_:)` reports each action and the change it caused.
///
/// ```swift
/// Feature()._printChanges()                                   // action and state diff, stderr
/// Feature()._printChanges(.actionLabels())                    // action names only
/// Feature()._printChanges(.diff(to: { logger.debug($0) }))    // elsewhere
/// ```
public struct ChangePrinter<State, Action> {
  let printChange: (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void

  /// A printer that reports each change with `printChange`, given the action and the state
  /// before and after it.
  public init(
    printChange: @escaping (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void
  ) {
    self.printChange = printChange
  }

  /// Writes the action, then the state as a `−before +after` line diff (the renderer of
  /// `TestStore` failures), or "(No state changes)":
  ///
  /// ```
  /// received action:
  ///   .increment
  ///    Counter.State(
  ///   −  count: 0,
  ///   +  count: 1,
  ///      step: 1,
  ///    )
  /// ```
  ///
  /// - Parameter output: where each report goes, one call per action; standard error by default.
  public static func diff(
    to output: @escaping @Sendable (String) -> Void = ChangePrinterOutput.standardError
  ) -> Self {
    Self { action, oldState, newState in
      var report = "received action:\n" + indented(StateDump.lines(of: action))
      let before = StateDump.lines(of: oldState)
      let after = StateDump.lines(of: newState)
      if before == after {
        report += "\n  (No state changes)"
      } else {
        report +=
          "\n"
          + indented(
            LineDiff.render(expected: before, actual: after)
              .split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
      }
      output(report + "\n")
    }
  }

  /// Writes only the action's case names, one line per action, without payloads:
  /// `received action: .editing(.titleChanged)`.
  ///
  /// - Parameter output: where each line goes; standard error by default.
  public static func actionLabels(
    to output: @escaping @Sendable (String) -> Void = ChangePrinterOutput.standardError
  ) -> Self {
    Self { action, _, _ in
      output("received action: \(caseLabel(of: action))\n")
    }
  }

  private static func indented(_ lines: [String]) -> String {
    lines.map { "  " + $0 }.joined(separator: "\n")
  }

  /// `.outer(.inner)` for nested enum cases; a payload that is not an enum is left out.
  private static func caseLabel(of value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum else { return String(describing: value) }
    guard let payload = mirror.children.first, let name = payload.label else {
      return ".\(value)"
    }
    guard Mirror(reflecting: payload.value).displayStyle == .enum else { return ".\(name)" }
    return ".\(name)(\(caseLabel(of: payload.value)))"
  }
}

/// Destinations for ``ChangePrinter`` reports.
public enum ChangePrinterOutput {
  /// Writes the report to standard error as it is.
  @Sendable
  public static func standardError(_ report: String) {
    FileHandle.standardError.write(Data(report.utf8))
  }
}
