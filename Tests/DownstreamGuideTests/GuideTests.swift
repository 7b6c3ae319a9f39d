import ComposableAuthoring
import ComposableAuthoringWorkspace
import ComposableCore
import ComposableTesting
import ComposableWorkspace
import ComposableWorkspaceTesting
import Foundation
import Testing

/// The README's downstream guide: its snippets are this target's code (checked word for
/// word), and that code works.
@MainActor
@Suite("Downstream guide")
struct GuideTests {
  /// The documents whose marked snippets are this target's code: the README's guide and the
  /// DocC articles that show an integration in use.
  static let documents = [
    "README.md", "Sources/SQLiteWorkspace/Documentation.docc/ADatabaseBackedWorkspace.md",
  ]

  @Test("Every snippet of the README's guide and the articles is, word for word, compiled code")
  func snippetsAreCompiled() throws {
    var snippets: [(name: String, code: String, document: String)] = []
    for document in Self.documents {
      let text = try String(
        contentsOf: Self.packageRoot.appendingPathComponent(document), encoding: .utf8)
      snippets += Self.markedSnippets(in: text).map { ($0.name, $0.code, document) }
    }
    let regions = try Self.regions()
    #expect(!regions.isEmpty)
    for (name, code) in regions {
      let shown = snippets.filter { $0.name == name }
      #expect(shown.count == 1, "the documents show region \(name) \(shown.count) times, not once")
      if let snippet = shown.first {
        #expect(
          snippet.code == code,
          "\(snippet.document): snippet \(name) differs from the compiled code")
      }
    }
    for snippet in snippets where snippet.name != "manifest" && regions[snippet.name] == nil {
      Issue.record(
        "\(snippet.document): snippet \(snippet.name) has no compiled region of that name")
    }
  }

  @Test("The installation snippet names this package and its real products")
  func manifestSnippetMatchesThePackage() throws {
    let root = Self.packageRoot
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let snippet = try #require(Self.markedSnippets(in: readme).first { $0.name == "manifest" })
    let packageName = try #require(manifest.firstMatch(of: #/name: "([^"]+)",\n  platforms/#)?.1)
    for match in snippet.code.matches(of: #/package: "([^"]+)"/#) {
      #expect(match.1 == packageName)
    }
    let products = Set(manifest.matches(of: #/\.library\(name: "([^"]+)"/#).map { String($0.1) })
    let named = snippet.code.matches(of: #/name: "([^"]+)",\s*package:/#).map { String($0.1) }
    #expect(!named.isEmpty)
    for product in named { #expect(products.contains(product), "\(product) is not a product") }
  }

  @Test("The guide's application: start, identity change, edit, propose, revocation, forget")
  func applicationStory() async throws {
    let server = CatalogueServer()
    let session = AppSession()
    let persisted = LockIsolated<AuthoringGrant?>(nil)
    let store = TestStore(initialState: EventApplication.State()) {
      EventApplication.live(server: server, session: session, persistedGrant: persisted)
    }
    store.exhaustivity = .off

    await store.send(.editing(.authoring(.restoreAuthorization)))
    await store.finish()
    #expect(store.state.editing.authoring.context == nil)

    // ada signs in: the identity changed.
    session.set(await server.signIn("ada"))
    await store.send(.editing(.authoring(.authorizationInvalidated)))
    await store.finish()
    await store.send(.editing(.authoring(.refreshAdmission)))
    await store.finish()
    #expect(store.state.editing.authoring.context?.identity.rawValue == "ada")
    #expect(store.state.editing.workspace.session?.source.events == ["e1": "Winter Concert"])

    await store.send(.editing(.content(.rename(id: "e1", title: "New Year Concert"))))
    await store.send(.editing(.content(.propose(title: "Rename"))))
    await store.finish()
    guard case .published(let record) = store.state.editing.content.form else {
      Issue.record("expected a published form, got \(store.state.editing.content.form)")
      return
    }
    #expect(record.target == WorkspaceBranchReference(branch: "main", revision: "r1"))

    // The server stops honouring the grant: the form is told, Authoring drops the capability.
    await server.revoke(grant: persisted.current?.rawValue ?? "")
    await store.send(.editing(.content(.rename(id: "e1", title: "Spring Concert"))))
    await store.send(.editing(.content(.propose(title: "Rename again"))))
    await store.finish()
    #expect(store.state.editing.authoring.context == nil)
    #expect(persisted.current != nil, "revocation is not an identity change: the grant stays")
    guard case .retryable(_, let reason) = store.state.editing.content.form else {
      Issue.record("expected a retryable form, got \(store.state.editing.content.form)")
      return
    }
    #expect(reason == "The authoring capability is no longer valid.")

    await store.send(.forgetWorkspace)
    await store.finish()
    #expect(store.state.editing.workspace == WorkspaceState(id: "events"))
    #expect(await server.proposalIDs() == ["P1"])
  }

  @Test("A reader's grant fails closed at start: validation asks the admission policy")
  func readerFailsClosed() async throws {
    // linus was admitted while he could author; the policy changed since.
    let server = CatalogueServer(authors: ["linus"])
    let session = AppSession()
    let token = await server.signIn("linus")
    session.set(token)
    let persisted = LockIsolated<AuthoringGrant?>(
      AuthoringGrant(rawValue: try await server.admit(token: token)))
    await server.demote("linus")
    let store = TestStore(initialState: EventApplication.State()) {
      EventApplication.live(server: server, session: session, persistedGrant: persisted)
    }
    store.exhaustivity = .off
    await store.send(.editing(.authoring(.restoreAuthorization)))
    await store.finish()
    #expect(
      store.state.editing.authoring.admission
        == .denied(AdmissionDenied(reason: "linus may only read")))
    #expect(persisted.current == nil)
  }

  // guide:begin conformance
  @Test("The guide's WorkspaceClient keeps the integration contract")
  func clientKeepsTheContract() async {
    await assertWorkspaceContract {
      let server = CatalogueServer()
      let session = AppSession()
      let token = await server.signIn("ada")
      session.set(token)
      let grant = try await server.admit(token: token)
      // A provider with a validated context in force, as Authoring would leave it.
      let capability = AuthoringCapabilityProvider(
        inForce: AuthoringContext(
          identity: AuthoringIdentity(rawValue: "ada"), grant: AuthoringGrant(rawValue: grant),
          capabilities: [.edit, .publish]))
      return WorkspaceContractSubject(
        client: .catalogue(
          server: server, session: session, capability: capability, copies: LocalCopies()),
        workspaceID: "events",
        otherBranch: "drafts",
        edit: { source in
          var edited = source
          edited.events["kit"] = "Edited by the kit"
          return edited
        },
        moveRemoteHead: { branch in
          let head = try await server.head(of: branch)
          var events = try await server.events(at: head)
          events["elsewhere-\(head.revision)"] = "Someone else's event"
          await server.commit(events, on: branch)
        },
        // The server stops honouring the grant.
        revokeAuthorization: { await server.revoke(grant: grant) },
        proposalIDs: { await server.proposalIDs() }
      )
      .comparingSources()
    }
  }
  // guide:end

  // MARK: Reading the README and the regions

  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  }

  /// A document's code blocks announced by a `<!-- guide: NAME -->` line.
  static func markedSnippets(in readme: String) -> [(name: String, code: String)] {
    var snippets: [(name: String, code: String)] = []
    var lines = readme.split(separator: "\n", omittingEmptySubsequences: false)[...]
    while let line = lines.popFirst() {
      guard let name = line.firstMatch(of: #/^<!-- guide: ([a-z-]+) -->$/#)?.1 else { continue }
      guard lines.popFirst()?.hasPrefix("```") == true else { continue }
      var code: [Substring] = []
      while let next = lines.popFirst(), next != "```" { code.append(next) }
      snippets.append((String(name), code.joined(separator: "\n")))
    }
    return snippets
  }

  /// The code between `// guide:begin NAME` and `// guide:end` in this target's sources,
  /// without the common indentation.
  static func regions() throws -> [String: String] {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    var regions: [String: String] = [:]
    for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    where file.hasSuffix(".swift") {
      let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      var current: (name: String, lines: [Substring])?
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let trimmed = line.drop { $0 == " " }
        if let name = trimmed.firstMatch(of: #/^// guide:begin ([a-z-]+)$/#)?.1 {
          current = (String(name), [])
        } else if trimmed == "// guide:end", let region = current {
          let indent =
            region.lines.filter { !$0.isEmpty }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
          regions[region.name] = region.lines.map { $0.dropFirst(indent) }.joined(separator: "\n")
          current = nil
        } else {
          current?.lines.append(line)
        }
      }
    }
    return regions
  }
}
