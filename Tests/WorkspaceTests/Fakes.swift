import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import Testing

// A tiny in-test integration: the source is a handle with an id, the change set a list of
// edit descriptions. Stories replace only the client endpoints they exercise.

struct FakeSource: Hashable, Sendable, Codable {
  var id: String
}

struct FakeChanges: WorkspaceChangeSet, Equatable {
  var edits: [String]
  var isEmpty: Bool { edits.isEmpty }
}

typealias FakeWorkspace = Workspace<FakeSource, FakeChanges>
typealias FakeClient = WorkspaceClient<FakeSource, FakeChanges>
typealias FakeState = WorkspaceState<FakeSource>

extension DependencyValues {
  var workspaceClient: FakeClient {
    get { self[FakeClient.self] }
    set { self[FakeClient.self] = newValue }
  }
}

enum Fixture {
  static let id: WorkspaceID = "events"
  static let source = FakeSource(id: "events-db")
  static let main1 = WorkspaceBranchReference(branch: "main", revision: "r1")
  static let main2 = WorkspaceBranchReference(branch: "main", revision: "r2")
  static let drafts = WorkspaceBranchReference(branch: "drafts", revision: "d7")
  static let session = WorkspaceSession(source: source, baseline: main1)
  static let edits = FakeChanges(edits: ["rename event 12", "move event 40 to Friday"])
  static let request = ProposalRequest(
    title: "Autumn schedule", summary: "Two fixes",
    idempotencyKey: UUID(uuidString: "00000000-0000-0000-0000-0000000000AA") ?? UUID()
  )
  static let record = ProposalRecord(id: "P-1", contentRevision: "c1", target: main1)

  static var inactive: FakeState { FakeState(id: id) }
  static var ready: FakeState { FakeState(id: id, availability: .ready(session)) }
}

extension WorkspaceFailure {
  /// What a client answering ``WorkspaceAuthorizationError/invalidated`` becomes.
  static let authorizationInvalidated = WorkspaceFailure(WorkspaceAuthorizationError.invalidated)
}

/// An error a client could throw; its description is the failure message.
struct FakeError: Error, Equatable, CustomStringConvertible {
  var description: String
}

@MainActor
func makeStore(
  _ initialState: FakeState = Fixture.ready,
  retry: PublicationRetryPolicy = .standard,
  dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
) -> TestStore<FakeState, FakeWorkspace.Action> {
  TestStore(
    initialState: initialState,
    reducer: { FakeWorkspace(publicationRetry: retry) },
    withDependencies: dependencies,
    timeout: .seconds(5)
  )
}

/// Holds callers until opened; deliberately ignores cancellation, like a network request whose
/// answer arrives after the caller gave up.
actor Gate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    guard !isOpen else { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }
}

/// Counts events a fake fires and lets a test await each one, in order. A wait that outlasts
/// its limit fails the test instead of hanging it.
actor Signal {
  private var fired = 0
  private var consumed = 0
  private var waiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private var lastID = 0

  func fire() {
    fired += 1
    if !waiters.isEmpty {
      consumed += 1
      waiters.removeFirst().continuation.resume()
    }
  }

  func wait(
    within limit: Duration = .seconds(15), sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    if consumed < fired {
      consumed += 1
      return
    }
    lastID += 1
    let id = lastID
    let timer = Task {
      try? await Task.sleep(for: limit)
      self.expire(id, limit: limit, sourceLocation: sourceLocation)
    }
    await withCheckedContinuation { waiters.append((id, $0)) }
    timer.cancel()
  }

  private func expire(_ id: Int, limit: Duration, sourceLocation: SourceLocation) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume()
    Issue.record("The awaited event did not fire within \(limit).", sourceLocation: sourceLocation)
  }
}
