import ComposableCore
import ComposableTesting
import Testing

private struct Failure: Error, CustomStringConvertible {
  var description: String { "disk full" }
}

@Suite("Issue reporting")
struct IssueReportingTests {
  @Test("withErrorReporting returns the value, or reports the error and returns nil")
  func syncErrorReporting() {
    let recorder = RecordingReporter()
    withIssueReporters([recorder]) {
      #expect(withErrorReporting { 42 } == 42)
      let failed: Int? = withErrorReporting("saving") { throw Failure() }
      #expect(failed == nil)
    }
    #expect(recorder.messages == ["saving: caught error: disk full"])
  }

  @Test("Async withErrorReporting reports errors but swallows cancellation")
  func asyncErrorReporting() async {
    let recorder = RecordingReporter()
    await withIssueReporters([recorder]) {
      let value = await withErrorReporting { () async throws -> Int in 7 }
      #expect(value == 7)
      let cancelled: Int? = await withErrorReporting { () async throws -> Int in
        throw CancellationError()
      }
      #expect(cancelled == nil)
      let failed: Int? = await withErrorReporting { () async throws -> Int in throw Failure() }
      #expect(failed == nil)
    }
    #expect(recorder.messages == ["caught error: disk full"])
  }

  @Test("Scoped reporters replace the default ones only inside the scope")
  func scopedReporters() {
    let inner = RecordingReporter()
    let outer = RecordingReporter()
    let previous = IssueReporters.default
    defer { IssueReporters.default = previous }
    IssueReporters.default = [outer]
    withIssueReporters([inner]) { reportIssue("inside") }
    reportIssue("outside")
    #expect(inner.messages == ["inside"])
    #expect(outer.messages.contains("outside"))
    #expect(!outer.messages.contains("inside"))
  }
}

private struct Escaper: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable, Equatable { case start, tick }
  let escaped: LockIsolated<Send<Action>?>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [escaped] send in escaped.setValue(send) }
    case .tick:
      state.count += 1
      return .none
    }
  }
}

@MainActor
@Suite("Effect misuse")
struct EffectMisuseTests {
  @Test("A send after the effect finished is reported and dropped")
  func sendAfterFinish() async {
    let recorder = RecordingReporter()
    let escaped = LockIsolated<Send<Escaper.Action>?>(nil)
    let store = Store(initialState: Escaper.State()) { Escaper(escaped: escaped) }
    await store.send(.start).finish(timeout: .seconds(15))
    guard let send = escaped.current else {
      Issue.record("the effect should have escaped its send")
      return
    }
    withIssueReporters([recorder]) { send(.tick) }
    #expect(store.count == 0)
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("after it had finished") == true)
  }

  @Test("An error nothing handles is reported; a catch handler receives it instead")
  func unhandledErrors() async {
    let recorder = RecordingReporter()
    let store = Store(initialState: Thrower.State()) { Thrower() }
    await withIssueReporters([recorder]) {
      await store.send(.unhandled).finish(timeout: .seconds(15))
      await store.send(.handled).finish(timeout: .seconds(15))
    }
    #expect(recorder.messages.count == 1)
    #expect(
      recorder.messages.first?.contains("An effect threw an error that nothing handled") == true)
    #expect(store.caught == ["disk full"])
  }
}

private struct Thrower: Reducer {
  struct State: Equatable { var caught: [String] = [] }
  enum Action: Sendable, Equatable {
    case unhandled, handled
    case caught(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .unhandled:
      return .run { _ in throw Failure() }
    case .handled:
      return .run { _ in
        throw Failure()
      } catch: { error, send in
        await send(.caught("\(error)"))
      }
    case .caught(let message):
      state.caught.append(message)
      return .none
    }
  }
}
