// swift-tools-version: 6.1
import PackageDescription

// System requirements (installed by `.ci/run` on a fresh Debian machine):
//   - libcurl4-openssl-dev, for FoundationNetworking users and the live HTTP layer;
//   - libsqlite3-dev (with the session extension, as Debian builds it), for SQLiteWorkspace;
//   - git, for the Git-backed workspace integration;
//   - fossil, for the Fossil integration's tests, benchmarks and `demo-cli --backend fossil`
//     (the client itself speaks HTTP only).

let package = Package(
  name: "swift-composable-workspace",
  platforms: [.iOS(.v17), .macOS(.v14)],
  products: [
    .library(name: "ComposableCore", targets: ["ComposableCore"]),
    .library(name: "ComposableTesting", targets: ["ComposableTesting"]),
    .library(name: "ComposableAuthoring", targets: ["ComposableAuthoring"]),
    .library(name: "ComposableWorkspace", targets: ["ComposableWorkspace"]),
    .library(name: "ComposableAuthoringWorkspace", targets: ["ComposableAuthoringWorkspace"]),
    .library(name: "WorkspaceDemoFeature", targets: ["WorkspaceDemoFeature"]),
    .library(name: "WorkspaceJournal", targets: ["WorkspaceJournal"]),
    .library(name: "ProcessSupport", targets: ["ProcessSupport"]),
    .library(name: "LoopbackSockets", targets: ["LoopbackSockets"]),
    .library(name: "WorkingCopySupport", targets: ["WorkingCopySupport"]),
    .library(name: "GitWorkspace", targets: ["GitWorkspace"]),
    .library(name: "WorkspaceHTTP", targets: ["WorkspaceHTTP"]),
    .library(name: "FossilWorkspace", targets: ["FossilWorkspace"]),
    .library(name: "LoopbackHTTPServer", targets: ["LoopbackHTTPServer"]),
    .library(name: "SQLiteWorkspace", targets: ["SQLiteWorkspace"]),
    .library(name: "ComposableWorkspaceTesting", targets: ["ComposableWorkspaceTesting"]),
    .executable(name: "demo-cli", targets: ["demo-cli"]),
  ],
  targets: [
    .target(name: "ComposableCore", path: "Sources/ComposableCore"),
    .target(
      name: "ComposableTesting",
      dependencies: ["ComposableCore"],
      path: "Sources/ComposableTesting"
    ),
    .target(
      name: "ComposableAuthoring", dependencies: ["ComposableCore"], path: "Sources/Authoring",
      packageAccess: false),
    .target(
      name: "ComposableWorkspace", dependencies: ["ComposableCore"], path: "Sources/Workspace",
      packageAccess: false),
    .target(
      name: "ComposableAuthoringWorkspace",
      dependencies: ["ComposableCore", "ComposableAuthoring", "ComposableWorkspace"],
      path: "Sources/AuthoringWorkspace", packageAccess: false
    ),
    .target(
      name: "WorkspaceDemoFeature",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace",
        "ComposableAuthoringWorkspace",
      ],
      path: "Sources/DemoFeature", packageAccess: false
    ),
    // Crash-safe publication around any WorkspaceClient: a durable journal of attempts.
    .target(
      name: "WorkspaceJournal",
      dependencies: ["ComposableCore", "ComposableWorkspace", "ComposableAuthoring"],
      path: "Sources/WorkspaceJournal", packageAccess: false),
    // Shared mechanisms, one module each (no owner holds them, no integration imports another).
    // Spawning children (posix_spawn), their descriptors and their termination.
    .target(
      name: "ProcessSupport", dependencies: ["ComposableCore"], path: "Sources/ProcessSupport",
      packageAccess: false),
    // The socket layer under the loopback server and the sign-in redirect listener.
    .target(
      name: "LoopbackSockets", dependencies: ["ComposableCore"], path: "Sources/LoopbackSockets",
      packageAccess: false),
    // Local working copies of live integrations: folder names, one operation at a time per copy.
    .target(
      name: "WorkingCopySupport", dependencies: ["ComposableCore", "ComposableWorkspace"],
      path: "Sources/WorkingCopySupport", packageAccess: false),
    // Live integration: a WorkspaceClient over any Git remote (spawns `git`).
    .target(
      name: "GitWorkspace",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "ProcessSupport",
        "WorkingCopySupport",
      ],
      path: "Sources/GitWorkspace",
      packageAccess: false
    ),
    // Shared mechanism: HTTP's message vocabulary, the same for a client and a server (headers,
    // methods, request heads and their parsing, server-sent events, idempotency keys, PKCE).
    // Re-exported by WorkspaceHTTP and LoopbackHTTPServer, so their users never import it.
    .target(
      name: "HTTPMessages", dependencies: ["ComposableCore", "LoopbackSockets"],
      path: "Sources/HTTPMessages", packageAccess: false),
    // Live integration: an HTTP session layer over URLSession (own cookie jar, CSRF, signed-out
    // state, idempotent intents, server-sent events, PKCE loopback sign-in).
    .target(
      name: "WorkspaceHTTP", dependencies: ["ComposableCore", "HTTPMessages", "LoopbackSockets"],
      path: "Sources/HTTP", packageAccess: false),
    // A small HTTP/1.1 server on 127.0.0.1 (tests, benchmarks, local reference servers): its own
    // target so apps using the client layer do not ship a server.
    .target(
      name: "LoopbackHTTPServer",
      dependencies: ["ComposableCore", "HTTPMessages", "LoopbackSockets"],
      path: "Sources/HTTPServer",
      packageAccess: false
    ),
    // Live integration: Fossil sign-in, admission from capabilities, and a WorkspaceClient
    // whose proposals are branches on a `fossil server` (over WorkspaceHTTP; spawns `fossil`
    // to run local repositories and servers).
    .target(
      name: "FossilWorkspace",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceHTTP",
        "ProcessSupport", "WorkingCopySupport",
      ],
      path: "Sources/FossilWorkspace",
      packageAccess: false
    ),
    // The system SQLite with the session extension declared (Debian: libsqlite3-dev).
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // Live integration: a database-backed workspace on SQLite (the working database and a
    // read-only reader of its exact baseline; changes as session-extension changesets).
    .target(
      name: "SQLiteWorkspace",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "CSQLite",
        "WorkingCopySupport",
      ],
      path: "Sources/SQLiteWorkspace",
      packageAccess: false
    ),
    // Test support: the integration-contract conformance kit (links Testing/XCTest).
    .target(
      name: "ComposableWorkspaceTesting",
      dependencies: ["ComposableCore", "ComposableWorkspace", "ComposableTesting"],
      path: "Sources/WorkspaceTesting", packageAccess: false
    ),
    // The demo's backends: what each provides (Interface, with the in-memory system's own),
    // and one module per live backend mapping the demo's events onto it.
    .target(
      name: "DemoBackendInterface",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
      ],
      path: "Sources/DemoBackends/Interface", packageAccess: false
    ),
    .target(
      name: "DemoGitBackend",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
        "DemoBackendInterface", "GitWorkspace", "WorkingCopySupport",
      ],
      path: "Sources/DemoBackends/Git", packageAccess: false
    ),
    // The demo's HTTP protocol (paths, wire models, problems), shared by its server and backend.
    .target(
      name: "DemoHTTPProtocol",
      dependencies: ["ComposableWorkspace", "WorkspaceDemoFeature"],
      path: "Sources/DemoBackends/HTTPProtocol", packageAccess: false
    ),
    .target(
      name: "DemoHTTPBackend",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
        "DemoBackendInterface", "DemoHTTPProtocol", "WorkspaceHTTP",
      ],
      path: "Sources/DemoBackends/HTTP", packageAccess: false
    ),
    // The demo's reference server: the in-memory system behind the HTTP protocol.
    .target(
      name: "DemoServer",
      dependencies: [
        "ComposableCore", "ComposableWorkspace", "WorkspaceDemoFeature", "DemoHTTPProtocol",
        "DemoSQLiteCatalogue", "LoopbackHTTPServer", "SQLiteWorkspace", "HTTPMessages",
      ],
      path: "Sources/DemoServer", packageAccess: false
    ),
    .target(
      name: "DemoFossilBackend",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
        "DemoBackendInterface", "FossilWorkspace", "WorkspaceHTTP",
      ],
      path: "Sources/DemoBackends/Fossil", packageAccess: false
    ),
    // The demo's catalogue as a SQLite table, shared by its SQLite backend and its server.
    .target(
      name: "DemoSQLiteCatalogue",
      dependencies: ["ComposableWorkspace", "WorkspaceDemoFeature", "SQLiteWorkspace"],
      path: "Sources/DemoBackends/SQLiteCatalogue", packageAccess: false
    ),
    .target(
      name: "DemoSQLiteBackend",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
        "DemoBackendInterface", "DemoHTTPProtocol", "DemoSQLiteCatalogue", "SQLiteWorkspace",
        "WorkspaceHTTP",
      ],
      path: "Sources/DemoBackends/SQLite", packageAccess: false
    ),
    .executableTarget(
      name: "demo-cli",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace",
        "ComposableAuthoringWorkspace", "WorkspaceDemoFeature", "DemoBackendInterface",
        "DemoGitBackend", "DemoHTTPBackend", "DemoHTTPProtocol", "DemoServer", "WorkspaceHTTP",
        "DemoFossilBackend", "DemoSQLiteBackend", "ProcessSupport", "WorkspaceJournal",
      ],
      path: "Sources/demo-cli", packageAccess: false
    ),
    .testTarget(
      name: "ComposableCoreTests",
      dependencies: ["ComposableCore", "ComposableTesting"]
    ),
    .testTarget(
      name: "ComposableTestingTests",
      dependencies: ["ComposableCore", "ComposableTesting"]
    ),
    // Three of TCA's case studies and their tests, ported with as few edits as possible
    // (PORTING.md counts them).
    .testTarget(
      name: "TCAPortTests",
      dependencies: ["ComposableCore", "ComposableTesting", "SwiftUICaseStudies"],
      exclude: ["PORTING.md"]
    ),
    // TCA's case studies as a TCA user ports them, under TCA's module name (its tests keep
    // `@testable import SwiftUICaseStudies`); PORTING.md counts the lines that changed.
    .target(
      name: "SwiftUICaseStudies", dependencies: ["ComposableCore"],
      path: "Tests/SwiftUICaseStudies"
    ),
    .testTarget(
      name: "AuthoringTests",
      dependencies: ["ComposableAuthoring", "ComposableCore", "ComposableTesting"]
    ),
    .testTarget(
      name: "WorkspaceTests",
      dependencies: ["ComposableCore", "ComposableTesting", "ComposableWorkspace"]
    ),
    .testTarget(
      name: "AuthoringWorkspaceTests",
      dependencies: [
        "ComposableAuthoring", "ComposableAuthoringWorkspace", "ComposableCore",
        "ComposableTesting", "ComposableWorkspace",
      ]
    ),
    .testTarget(
      name: "DemoFeatureTests",
      dependencies: [
        "ComposableAuthoring", "ComposableCore", "ComposableTesting", "ComposableWorkspace",
        "ComposableWorkspaceTesting", "WorkspaceDemoFeature",
      ]
    ),
    .testTarget(
      name: "GitWorkspaceTests",
      dependencies: [
        "ComposableAuthoring", "ComposableCore", "ComposableTesting", "ComposableWorkspace",
        "ComposableWorkspaceTesting", "GitWorkspace", "ProcessSupport", "ProcessTestSupport",
        "WorkingCopySupport",
      ]
    ),
    // Test support: scripts and git commands run without blocking or "Text file busy" races.
    .target(
      name: "ProcessTestSupport", dependencies: ["ComposableCore", "ProcessSupport"],
      path: "Tests/ProcessTestSupport"
    ),
    .testTarget(
      name: "WorkspaceJournalTests",
      dependencies: ["ComposableCore", "ComposableWorkspace", "WorkspaceJournal"]
    ),
    .testTarget(
      name: "ProcessSupportTests",
      dependencies: ["ProcessSupport", "ProcessTestSupport"]
    ),
    // The README's downstream guide: its snippets are this target's code, checked word for word.
    .testTarget(
      name: "DownstreamGuideTests",
      dependencies: [
        "ComposableAuthoring", "ComposableAuthoringWorkspace", "ComposableCore",
        "ComposableTesting", "ComposableWorkspace", "ComposableWorkspaceTesting",
        "SQLiteWorkspace",
      ]
    ),
    // Bounded waits, signals and report logs shared by the test targets that talk HTTP.
    .target(
      name: "HTTPTestSupport", dependencies: ["ComposableCore"], path: "Tests/HTTPTestSupport"),
    .testTarget(name: "HTTPMessagesTests", dependencies: ["HTTPMessages", "HTTPTestSupport"]),
    .testTarget(
      name: "WorkspaceHTTPTests",
      dependencies: [
        "ComposableCore", "ComposableTesting", "HTTPTestSupport", "LoopbackHTTPServer",
        "LoopbackSockets", "WorkspaceHTTP",
      ]
    ),
    .testTarget(
      name: "LoopbackHTTPServerTests",
      dependencies: [
        "ComposableCore", "HTTPTestSupport", "LoopbackHTTPServer", "LoopbackSockets",
        "WorkspaceHTTP",
      ]
    ),
    .testTarget(
      name: "FossilWorkspaceTests",
      dependencies: [
        "ComposableAuthoring", "ComposableCore", "ComposableTesting", "ComposableWorkspace",
        "ComposableWorkspaceTesting", "FossilWorkspace", "HTTPTestSupport", "LoopbackHTTPServer",
        "ProcessTestSupport", "WorkspaceHTTP",
      ]
    ),
    .testTarget(
      name: "SQLiteWorkspaceTests",
      dependencies: [
        "ComposableAuthoring", "ComposableCore", "ComposableTesting", "ComposableWorkspace",
        "ComposableWorkspaceTesting", "CSQLite", "SQLiteWorkspace",
      ]
    ),
    .testTarget(
      name: "DemoGitBackendTests",
      dependencies: ["DemoGitBackend", "WorkspaceDemoFeature"]
    ),
    .testTarget(
      name: "DemoServerTests",
      dependencies: [
        "ComposableAuthoring", "ComposableCore", "ComposableWorkspace",
        "ComposableWorkspaceTesting", "DemoHTTPProtocol", "DemoServer", "DemoSQLiteBackend",
        "HTTPTestSupport", "LoopbackHTTPServer", "SQLiteWorkspace", "WorkspaceDemoFeature",
        "WorkspaceHTTP",
      ]
    ),
    .testTarget(
      name: "DemoHTTPBackendTests",
      dependencies: [
        "ComposableAuthoring", "ComposableCore", "ComposableWorkspace",
        "ComposableWorkspaceTesting", "DemoBackendInterface", "DemoHTTPBackend", "DemoServer",
        "WorkspaceDemoFeature", "WorkspaceHTTP",
      ]
    ),
    .testTarget(
      name: "DemoCLITests",
      dependencies: [
        "demo-cli", "ComposableAuthoring", "ComposableCore", "ComposableWorkspace",
        "DemoBackendInterface", "DemoFossilBackend", "DemoGitBackend", "DemoHTTPBackend",
        "DemoHTTPProtocol", "DemoServer", "DemoSQLiteBackend", "FossilWorkspace", "GitWorkspace",
        "HTTPTestSupport", "LoopbackHTTPServer", "LoopbackSockets", "ProcessSupport",
        "ProcessTestSupport", "SQLiteWorkspace", "WorkspaceDemoFeature", "WorkspaceHTTP",
        "WorkspaceJournal",
      ]
    ),
  ]
)
