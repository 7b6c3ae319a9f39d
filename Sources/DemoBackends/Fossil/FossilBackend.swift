import ComposableAuthoring
import ComposableWorkspace
import DemoBackendInterface
import FossilWorkspace
import Foundation
import WorkspaceDemoFeature

/// The demo on a Fossil server: people sign in to it (its users are the demo's accounts),
/// admission is decided by their capabilities there (check-in: edit and publish), the
/// catalogue is the `published` branch's `catalogue.json` (``CatalogueFile``), proposals are
/// the Fossil client's `proposal-<key>` branches, a merge is a reviewer's Fossil merge on the
/// target, and each proposal's discussion is a thread of the repository's forum. The in-memory system keeps nothing but the state file's shape.
///
/// ```swift
/// let opened = try await FossilRemoteSetup().open(.new)
/// let backend = FossilBackend(opened: opened, root: workingCopiesFolder)
/// ```
public struct FossilBackend: DemoBackend {
  /// The server's URL.
  public let url: URL
  /// Where the working copies are kept (one folder per workspace id).
  public let root: URL
  /// The application's conversation with the server: its sign-in, its workspace.
  public let session: FossilSession
  /// Who merges: the reviewer's session, or `nil` for the signed-in person.
  let reviewer: FossilSession?

  /// A backend on the server `opened` names, keeping its working copies under `root`.
  public init(opened: FossilRemoteSetup.Opened, root: URL) {
    self.url = opened.url
    self.root = root
    self.session = FossilSession(baseURL: opened.url)
    self.reviewer = opened.reviewer
  }

  public var remote: String? { url.absoluteString }

  public var name: String { "fossil" }

  public var placeDescription: String { "the Fossil server \(url.absoluteString)" }

  /// The Fossil login lives in this process's memory only.
  public var keepsSessionsAcrossRuns: Bool { false }

  /// Everything is the Fossil server's: no in-memory system is kept.
  public var system: DemoSystem? { nil }

  /// The branch a new workspace is prepared on.
  static let publishedBranch: BranchName = "published"

  public func clients(
    credentials: DemoCredentials,
    workingCopies: [WorkspaceSession<EventWorkingCopy>]
  ) -> DemoBackendClients {
    let configuration = FossilWorkspaceConfiguration(
      root: root, defaultBranch: Self.publishedBranch)
    let capability = credentials.capability
    let fossil = FossilWorkspaceClient(
      session: session, configuration: configuration, capability: capability)
    let reviewerClient = FossilWorkspaceClient(
      session: reviewer ?? session, configuration: configuration,
      capability: { [reviewer] in
        reviewer == nil ? capability.current : Self.reviewerContext
      })
    let reader = FossilReader(session: session)
    let catalogue = FossilCatalogue(reader: reader, reviewer: reviewerClient)
    let admission = FossilAdmission(session: session)
    let session = self.session
    let application = DemoClients(
      credentials: credentials,
      auth: AuthClient(
        signIn: { name, password in
          let user = try await session.signIn(name: name, password: password)
          // The demo's session names the login without carrying it: the cookie stays in the
          // session's jar, so nothing secret reaches the state file.
          let handle = DemoSession(
            token: "fossil-" + UUID().uuidString.prefix(8).lowercased(), username: user.name)
          credentials.update { $0.session = handle }
          return handle
        },
        signOut: {
          credentials.update { $0.session = nil }
          try? await session.signOut()
        }),
      authoring: .persistingGrants(
        in: credentials, validate: admission.validate,
        requestAdmission: admission.requestAdmission,
        // A Fossil grant is not issued by the server, so there is nothing to give back.
        relinquish: { _ in }),
      workspace: .fossil(fossil, reader: reader, capability: { capability.current }),
      catalogue: catalogue.client,
      localData: LocalWorkspaceDataClient(remove: { id in try await fossil.removeWorkingCopy(id) })
    )
    return DemoBackendClients(
      application: application, reader: catalogue,
      live: FossilLiveChannel(
        session: session, branch: Self.publishedBranch, interval: .seconds(2),
        idleMaximum: .seconds(4)),
      discussion: FossilForumDiscussion(fossil: fossil))
  }

  /// Who merges on a server this process created (the reviewer account).
  static let reviewerContext = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "reviewer"),
    grant: AuthoringGrant(rawValue: "reviewer"),
    capabilities: [.edit, .publish])
}
