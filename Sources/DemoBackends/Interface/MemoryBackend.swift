import ComposableWorkspace
import WorkspaceDemoFeature

/// The in-memory system itself: the catalogue, proposals and working copies all on the
/// `DemoSystem` (the default backend).
public struct MemoryBackend: DemoBackend {
  /// Where everything lives.
  public let memory: DemoSystem

  public init(system: DemoSystem = DemoSystem()) {
    self.memory = system
  }

  public var system: DemoSystem? { memory }

  public var remote: String? { nil }

  public var name: String { "memory" }

  public var placeDescription: String { "an in-memory system" }

  public func clients(
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>]
  ) -> DemoBackendClients {
    DemoBackendClients(
      application: .inMemory(
        system: memory, credentials: credentials, workingCopies: workingCopies),
      reader: SystemCatalogue(system: memory))
  }
}

/// The in-memory system's catalogue.
public struct SystemCatalogue: CatalogueReader {
  public let system: DemoSystem

  public init(system: DemoSystem) {
    self.system = system
  }

  public func events(at reference: WorkspaceBranchReference) async -> [Event]? {
    try? await system.revision(reference.revision, of: reference.branch.rawValue).events
  }

  public func head(of branch: BranchName) async -> String? {
    try? await system.head(of: branch.rawValue).id
  }

  public func branches() async -> [String] {
    await system.branches()
  }

  public func allProposals() async -> [DemoProposal] {
    await system.allProposals()
  }

  public func proposal(named id: String) async -> DemoProposal? {
    await system.allProposals().first { $0.id == id }
  }
}
