import ComposableCore
import ComposableTesting
import ComposableWorkspace

/// Checks `WorkspaceClient` implementations against every rule of the integration contract
/// (or the given `rules`), each on a fresh subject from `makeSubject`, and answers the
/// violations found — empty when the client conforms.
///
/// ```swift
/// let violations = await checkWorkspaceContract { try await makeGitSubject() }
/// #expect(violations.isEmpty, "\(violations)")
/// ```
///
/// A subject that cannot be made, and a client call that throws where the rule expects an
/// answer, are reported as violations of the rule being checked.
public func checkWorkspaceContract<Source: Sendable, ChangeSet: WorkspaceChangeSet>(
  rules: [WorkspaceContractRule] = WorkspaceContractRule.allCases,
  isolation: isolated (any Actor)? = #isolation,
  _ makeSubject: () async throws -> WorkspaceContractSubject<Source, ChangeSet>
) async -> [WorkspaceRuleViolation] {
  var violations: [WorkspaceRuleViolation] = []
  for rule in rules {
    let subject: WorkspaceContractSubject<Source, ChangeSet>
    do {
      subject = try await makeSubject()
    } catch {
      violations.append(
        WorkspaceRuleViolation(
          rule: rule, message: "the subject could not be made: \(describe(error))")
      )
      continue
    }
    let findings = ContractFindings()
    var ending: String?
    do {
      try await ContractChecks.check(rule, subject, findings)
    } catch let failure as ContractStepFailure {
      ending = failure.message
    } catch {
      ending = "the check threw \(describe(error))"
    }
    for message in findings.messages + (ending.map { [$0] } ?? []) {
      violations.append(WorkspaceRuleViolation(rule: rule, message: message))
    }
  }
  return violations
}

/// Checks the integration contract like ``checkWorkspaceContract(rules:isolation:_:)`` and
/// records each violation as a failure of the running test (a Swift Testing issue inside a
/// `@Test`, an XCTest failure otherwise), at the caller's location.
///
/// ```swift
/// @Test func gitClientConforms() async {
///   await assertWorkspaceContract { try await makeGitSubject() }
/// }
/// ```
public func assertWorkspaceContract<Source: Sendable, ChangeSet: WorkspaceChangeSet>(
  rules: [WorkspaceContractRule] = WorkspaceContractRule.allCases,
  reporter: any IssueReporter = TestIssueReporter(),
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation,
  _ makeSubject: () async throws -> WorkspaceContractSubject<Source, ChangeSet>
) async {
  let violations = await checkWorkspaceContract(rules: rules, isolation: isolation, makeSubject)
  let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  for violation in violations {
    reporter.reportIssue("Workspace contract violated: \(violation)", at: location)
  }
}
