import ComposableCore
import ComposableTesting
import Testing

struct Greeting: DependencyKey, Equatable {
  var text: String
  static let liveValue = Greeting(text: "live")
  static let testValue = Greeting(text: "test")
}

/// A key that forgot its test value.
struct Forgotten: DependencyKey {
  var value: Int
  static let liveValue = Forgotten(value: 1)
}

extension DependencyValues {
  var greeting: Greeting {
    get { self[Greeting.self] }
    set { self[Greeting.self] = newValue }
  }
}

struct Greeter: Reducer {
  struct State: Equatable { var seen: [String] = [] }
  enum Action: Sendable, Equatable { case greet, readGreeting, readForgotten }
  @Dependency(\.greeting) var greeting
  @Dependency(Forgotten.self) var forgotten

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .greet:
      state.seen.append("reduce: \(greeting.text)")
      return .run(modifying: State.self) { _, state in
        @Dependency(\.greeting) var greeting
        let inEffect = greeting.text
        let inChildTask = await withTaskGroup(of: String.self) { group in
          group.addTask {
            @Dependency(\.greeting) var greeting
            return greeting.text
          }
          return await group.next() ?? "none"
        }
        let inUnstructured = await Task {
          @Dependency(\.greeting) var greeting
          return greeting.text
        }.value
        await state.modify {
          $0.seen.append("effect: \(inEffect), child: \(inChildTask), task: \(inUnstructured)")
        }
      }
    case .readGreeting:
      state.seen.append("read: \(greeting.text)")
      return .none
    case .readForgotten:
      state.seen.append("forgotten: \(forgotten.value)")
      return .none
    }
  }
}

@MainActor
@Suite("Dependencies")
struct DependencyTests {
  @Test("Values set by .dependency reach the reduce, the effect and the effect's child tasks")
  func dependenciesFlowIntoEffects() async {
    let store = Store(initialState: Greeter.State()) {
      Greeter().dependency(\.greeting, Greeting(text: "override"))
    }
    await store.send(.greet).finish(timeout: .seconds(15))
    #expect(
      store.seen == [
        "reduce: override",
        "effect: override, child: override, task: override",
      ])
  }

  @Test("The type-keyed .dependency modifier installs a DependencyKey value")
  func typeKeyedModifier() async {
    let store = Store(initialState: Greeter.State()) {
      Greeter().dependency(Greeting(text: "by type"))
    }
    await store.send(.greet).finish(timeout: .seconds(15))
    #expect(store.seen.first == "reduce: by type")
  }

  @Test("Store(withDependencies:) overrides for everything the store runs")
  func storeLevelOverrides() async {
    let store = Store(initialState: Greeter.State()) {
      Greeter()
    } withDependencies: {
      $0.greeting = Greeting(text: "store")
    }
    await store.send(.greet).finish(timeout: .seconds(15))
    #expect(store.seen == ["reduce: store", "effect: store, child: store, task: store"])
  }

  @Test("A store made inside withDependencies runs every reduce and effect with those values")
  func storeKeepsTheDependenciesOfItsCreation() async {
    let store = withDependencies {
      $0.greeting = Greeting(text: "at creation")
    } operation: {
      Store(initialState: Greeter.State()) { Greeter() }
    }
    await store.send(.greet).finish(timeout: .seconds(15))
    // Values in force where an action is sent do not replace the store's own (as in TCA).
    let task = withDependencies {
      $0.greeting = Greeting(text: "at send")
    } operation: {
      store.send(.greet)
    }
    await task.finish(timeout: .seconds(15))
    #expect(
      store.seen == [
        "reduce: at creation", "effect: at creation, child: at creation, task: at creation",
        "reduce: at creation", "effect: at creation, child: at creation, task: at creation",
      ])
  }

  @Test("Inside such a store, .dependency modifiers still override for their reducer")
  func modifiersOverrideTheStoreValues() async {
    let store = withDependencies {
      $0.greeting = Greeting(text: "at creation")
    } operation: {
      Store(initialState: Greeter.State()) {
        Greeter().dependency(\.greeting, Greeting(text: "modifier"))
      }
    }
    await store.send(.greet).finish(timeout: .seconds(15))
    #expect(
      store.seen == ["reduce: modifier", "effect: modifier, child: modifier, task: modifier"])
  }

  @Test("A task that outlived the scope it inherited values from sends with each store's own")
  func sendsFromATaskThatInheritedAnotherScope() async {
    let rootStore = Store(initialState: Greeter.State()) { Greeter() }
    let scopedStore = withDependencies {
      $0.greeting = Greeting(text: "store scope")
    } operation: {
      Store(initialState: Greeter.State()) { Greeter() }
    }
    // Each task keeps the values of the scope it was made in after that scope has ended: to the
    // first they are the scoped store's own values (nothing to install), to the second another
    // scope's values (both stores install theirs).
    let insideStoreScope = withDependencies {
      $0.greeting = Greeting(text: "store scope")
    } operation: {
      Task { @MainActor in
        await rootStore.send(.readGreeting).finish(timeout: .seconds(15))
        await scopedStore.send(.readGreeting).finish(timeout: .seconds(15))
      }
    }
    await insideStoreScope.value
    let insideOtherScope = withDependencies {
      $0.greeting = Greeting(text: "other scope")
    } operation: {
      Task { @MainActor in
        await scopedStore.send(.readGreeting).finish(timeout: .seconds(15))
        await rootStore.send(.readGreeting).finish(timeout: .seconds(15))
      }
    }
    await insideOtherScope.value
    #expect(rootStore.seen == ["read: live", "read: live"])
    #expect(scopedStore.seen == ["read: store scope", "read: store scope"])
  }

  @Test("Test stores answer test values; a key without one is reported by name")
  func missingTestValueIsReported() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = TestStore(initialState: Greeter.State()) { Greeter() }
      await store.send(.readForgotten) { $0.seen = ["forgotten: 1"] }
      await store.send(.greet) { $0.seen.append("reduce: test") }
      await store.receiveModification {
        $0.seen.append("effect: test, child: test, task: test")
      }
    }
    #expect(recorder.messages.count == 1, "\(recorder.messages)")
    #expect(recorder.messages.first?.contains("@Dependency(Forgotten) has no test value") == true)
  }

  @Test("An unimplemented endpoint reports its name and throws")
  func unimplementedEndpoint() async {
    let recorder = RecordingReporter()
    let endpoint: @Sendable (Int) async throws -> String = unimplemented("Client.fetch")
    await withIssueReporters([recorder]) {
      await #expect(throws: UnimplementedEndpoint(endpoint: "Client.fetch")) {
        try await endpoint(1)
      }
    }
    #expect(
      recorder.messages == [
        "Unimplemented: Client.fetch was called, but this test did not override it."
      ])
  }

  @Test("Live values stay one instance per process, whatever context was set before")
  func liveValuesAreSingletons() {
    var values = DependencyValues()
    values.context = .test
    values.context = .live
    let first = values[Counted.self]
    let second = DependencyValues()[Counted.self]
    #expect(first === second)
  }

  @Test("Each test store gets its own incrementing UUID sequence")
  func uuidPerTestStore() {
    var first = DependencyValues()
    first.context = .test
    var second = DependencyValues()
    second.context = .test
    #expect(first.uuid().uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(first.uuid().uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(second.uuid().uuidString == "00000000-0000-0000-0000-000000000000")
  }
}

/// A live value whose identity shows whether it was made once.
final class Counted: DependencyKey, Sendable {
  /// A new instance on every read: only the default-value cache makes it one per process.
  static var liveValue: Counted { Counted() }
  static var testValue: Counted { Counted() }
}
