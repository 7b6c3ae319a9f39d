// swift-tools-version: 6.1
import PackageDescription

// System requirements (installed by `.ci/run` on a fresh Debian machine):
//   - libcurl4-openssl-dev, for FoundationNetworking users and the live HTTP layer;
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
    .library(name: "GitWorkspace", targets: ["GitWorkspace"]),
    .library(name: "WorkspaceHTTP", targets: ["WorkspaceHTTP"]),
    .library(name: "FossilWorkspace", targets: ["FossilWorkspace"]),
    .library(name: "LoopbackHTTPServer", targets: ["LoopbackHTTPServer"]),
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
      name: "ComposableAuthoring", dependencies: ["ComposableCore"], path: "Sources/Authoring"),
    .target(
      name: "ComposableWorkspace", dependencies: ["ComposableCore"], path: "Sources/Workspace"),
    .target(
      name: "ComposableAuthoringWorkspace",
      dependencies: ["ComposableCore", "ComposableAuthoring", "ComposableWorkspace"],
      path: "Sources/AuthoringWorkspace"
    ),
    .target(
      name: "WorkspaceDemoFeature",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace",
        "ComposableAuthoringWorkspace",
      ],
      path: "Sources/DemoFeature"
    ),
    // Live integration: a WorkspaceClient over any Git remote (spawns `git`).
    .target(
      name: "GitWorkspace",
      dependencies: ["ComposableCore", "ComposableAuthoring", "ComposableWorkspace"],
      path: "Sources/GitWorkspace"
    ),
    // Live integration: an HTTP session layer over URLSession (own cookie jar, CSRF, signed-out
    // state, idempotent intents, server-sent events, PKCE loopback sign-in).
    .target(name: "WorkspaceHTTP", dependencies: ["ComposableCore"], path: "Sources/HTTP"),
    // A small HTTP/1.1 server on 127.0.0.1 (tests, benchmarks, local reference servers): its own
    // target so apps using the client layer do not ship a server.
    .target(
      name: "LoopbackHTTPServer",
      dependencies: ["ComposableCore", "WorkspaceHTTP"],
      path: "Sources/HTTPServer"
    ),
    // Live integration: Fossil sign-in, admission from capabilities, and a WorkspaceClient
    // whose proposals are branches on a `fossil server` (over WorkspaceHTTP; spawns `fossil`
    // only to run local repositories and servers, through GitWorkspace's ProcessRunner).
    .target(
      name: "FossilWorkspace",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceHTTP",
        "GitWorkspace",
      ],
      path: "Sources/FossilWorkspace"
    ),
    // Test support: the integration-contract conformance kit (links Testing/XCTest).
    .target(
      name: "ComposableWorkspaceTesting",
      dependencies: ["ComposableCore", "ComposableWorkspace", "ComposableTesting"],
      path: "Sources/WorkspaceTesting"
    ),
    // The demo's backends: what each provides (Interface, with the in-memory system's own),
    // and one module per live backend mapping the demo's events onto it.
    .target(
      name: "DemoBackendInterface",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
      ],
      path: "Sources/DemoBackends/Interface"
    ),
    .target(
      name: "DemoGitBackend",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
        "DemoBackendInterface", "GitWorkspace",
      ],
      path: "Sources/DemoBackends/Git"
    ),
    // The demo's HTTP protocol (paths, wire models, problems), shared by its server and backend.
    .target(
      name: "DemoHTTPProtocol",
      dependencies: ["WorkspaceDemoFeature"],
      path: "Sources/DemoBackends/HTTPProtocol"
    ),
    .target(
      name: "DemoHTTPBackend",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
        "DemoBackendInterface", "DemoHTTPProtocol", "WorkspaceHTTP",
      ],
      path: "Sources/DemoBackends/HTTP"
    ),
    // The demo's reference server: the in-memory system behind the HTTP protocol.
    .target(
      name: "DemoServer",
      dependencies: [
        "ComposableCore", "WorkspaceDemoFeature", "DemoHTTPProtocol", "LoopbackHTTPServer",
        "WorkspaceHTTP",
      ],
      path: "Sources/DemoServer"
    ),
    .target(
      name: "DemoFossilBackend",
      dependencies: [
        "ComposableCore", "ComposableAuthoring", "ComposableWorkspace", "WorkspaceDemoFeature",
        "DemoBackendInterface", "FossilWorkspace", "WorkspaceHTTP",
      ],
      path: "Sources/DemoBackends/Fossil"
    ),
    .executableTarget(
      name: "demo-cli",
      dependencies: [
        "WorkspaceDemoFeature", "DemoBackendInterface", "DemoGitBackend", "GitWorkspace",
        "DemoHTTPBackend", "DemoHTTPProtocol", "DemoServer", "WorkspaceHTTP", "DemoFossilBackend",
      ],
      path: "Sources/demo-cli"
    ),
    .testTarget(
      name: "ComposableCoreTests",
      dependencies: ["ComposableCore", "ComposableTesting"]
    ),
    .testTarget(
      name: "ComposableTestingTests",
      dependencies: ["ComposableCore", "ComposableTesting"]
    ),
    .testTarget(
      name: "AuthoringTests",
      dependencies: ["ComposableAuthoring", "ComposableTesting"]
    ),
    .testTarget(
      name: "WorkspaceTests",
      dependencies: ["ComposableWorkspace", "ComposableTesting"]
    ),
    .testTarget(
      name: "AuthoringWorkspaceTests",
      dependencies: ["ComposableAuthoringWorkspace", "ComposableTesting"]
    ),
    .testTarget(
      name: "DemoFeatureTests",
      dependencies: ["WorkspaceDemoFeature", "ComposableTesting", "ComposableWorkspaceTesting"]
    ),
    .testTarget(
      name: "GitWorkspaceTests",
      dependencies: [
        "GitWorkspace", "ComposableTesting", "ComposableWorkspaceTesting", "ProcessTestSupport",
      ]
    ),
    // Test support: scripts and git commands run without blocking or "Text file busy" races.
    .target(
      name: "ProcessTestSupport", dependencies: ["GitWorkspace"], path: "Tests/ProcessTestSupport"),
    // The README's downstream guide: its snippets are this target's code, checked word for word.
    .testTarget(
      name: "DownstreamGuideTests",
      dependencies: [
        "ComposableAuthoringWorkspace", "ComposableTesting", "ComposableWorkspaceTesting",
      ]
    ),
    // Bounded waits, signals and report logs shared by the two HTTP test targets.
    .target(
      name: "HTTPTestSupport", dependencies: ["ComposableCore"], path: "Tests/HTTPTestSupport"),
    .testTarget(
      name: "WorkspaceHTTPTests",
      dependencies: ["WorkspaceHTTP", "LoopbackHTTPServer", "ComposableTesting", "HTTPTestSupport"]
    ),
    .testTarget(
      name: "LoopbackHTTPServerTests",
      dependencies: ["LoopbackHTTPServer", "WorkspaceHTTP", "HTTPTestSupport"]
    ),
    .testTarget(
      name: "FossilWorkspaceTests",
      dependencies: [
        "FossilWorkspace", "ComposableTesting", "ComposableWorkspaceTesting", "LoopbackHTTPServer",
        "HTTPTestSupport", "ProcessTestSupport",
      ]
    ),
    .testTarget(
      name: "DemoGitBackendTests",
      dependencies: ["DemoGitBackend", "WorkspaceDemoFeature"]
    ),
    .testTarget(
      name: "DemoServerTests",
      dependencies: [
        "DemoServer", "DemoHTTPProtocol", "WorkspaceDemoFeature", "WorkspaceHTTP",
        "LoopbackHTTPServer", "HTTPTestSupport", "ComposableCore",
      ]
    ),
    .testTarget(
      name: "DemoHTTPBackendTests",
      dependencies: [
        "DemoHTTPBackend", "DemoServer", "DemoHTTPProtocol", "DemoBackendInterface",
        "WorkspaceDemoFeature", "WorkspaceHTTP", "LoopbackHTTPServer", "ComposableTesting",
        "ComposableWorkspaceTesting", "HTTPTestSupport",
      ]
    ),
    .testTarget(
      name: "DemoCLITests",
      dependencies: [
        "demo-cli", "WorkspaceDemoFeature", "DemoBackendInterface", "DemoGitBackend",
        "GitWorkspace", "ComposableTesting", "ProcessTestSupport", "DemoHTTPBackend", "DemoServer",
        "DemoHTTPProtocol", "LoopbackHTTPServer", "WorkspaceHTTP", "HTTPTestSupport",
        "DemoFossilBackend", "FossilWorkspace",
      ]
    ),
  ]
)
