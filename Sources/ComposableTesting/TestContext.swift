import ComposableCore

/// The dependencies and reporters a test store's reducer runs with; mutable between sends.
/// Owned by one test store and used only on the main actor.
final class TestContext {
  var dependencies: DependencyValues
  var reporters: [any IssueReporter]

  init(dependencies: DependencyValues, reporters: [any IssueReporter]) {
    self.dependencies = dependencies
    self.reporters = reporters
  }
}

/// Runs the tested reducer with the test context installed.
struct TestReducer<Base: Reducer>: Reducer {
  let base: Base
  let context: TestContext

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    DependencyValues.install(context.dependencies) {
      IssueReporters.$scoped.withValue(context.reporters) {
        base.reduce(into: &state, action: action)
      }
    }
  }
}
