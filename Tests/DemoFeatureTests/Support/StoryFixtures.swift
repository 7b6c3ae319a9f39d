import ComposableAuthoring
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Foundation
import WorkspaceDemoFeature

typealias App = WorkspaceDemoFeature

/// A test store on the live feature graph and a fresh in-memory system: the same graph
/// `makeWorkspaceDemoStore()` builds. Only the test harness differs.
@MainActor
func makeStoryStore(
  system: DemoSystem = DemoSystem(configuration: .init(projectionLag: 1)),
  credentials: DemoCredentials = DemoCredentials(),
  initialState: App.State = App.State()
) -> TestStore<App.State, App.Action> {
  TestStore(initialState: initialState) {
    App.live(.inMemory(system: system, credentials: credentials))
  }
}

let adaContext = AuthoringContext(
  identity: AuthoringIdentity(rawValue: "ada"),
  grant: AuthoringGrant(rawValue: "grant-1"),
  capabilities: [.edit, .publish]
)

let seedEvents: [Event] = DemoSystemSnapshot.seedPublishedEvents

let publishedR1 = WorkspaceBranchReference(branch: "published", revision: "r1")
let publishedR2 = WorkspaceBranchReference(branch: "published", revision: "r2")

func readySession(events: [Event], baseline: WorkspaceBranchReference) -> WorkspaceAvailability<
  EventWorkingCopy
> {
  .ready(
    WorkspaceSession(
      source: EventWorkingCopy(workspace: "events", events: IdentifiedArray(events)),
      baseline: baseline
    ))
}

extension UUID {
  /// The n-th UUID the test uuid generator makes.
  static func testKey(_ n: Int) -> UUID {
    UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", n))") ?? UUID()
  }
}

extension DemoSystemSnapshot {
  static var seedPublishedEvents: [Event] {
    [
      Event(id: "e1", title: "Winter Concert", date: "2026-12-12", venue: "Town Hall"),
      Event(id: "e2", title: "Book Fair", date: "2027-01-16", venue: "Library"),
      Event(id: "e3", title: "Science Night", date: "2027-02-06", venue: "Museum"),
    ]
  }
}
