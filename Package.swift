// swift-tools-version: 6.1
import PackageDescription

// System requirements (installed by `.ci/run` on a fresh Debian machine):
//   - libcurl4-openssl-dev, for FoundationNetworking users and the live HTTP layer;
//   - git, for the Git-backed workspace integration.

let package = Package(
  name: "swift-composable-workspace",
  platforms: [.iOS(.v17), .macOS(.v14)],
  products: [
    .library(name: "ComposableCore", targets: ["ComposableCore"]),
    .library(name: "ComposableTesting", targets: ["ComposableTesting"]),
    .library(name: "ComposableAuthoring", targets: ["ComposableAuthoring"]),
    .library(name: "ComposableWorkspace", targets: ["ComposableWorkspace"]),
    .library(name: "ComposableAuthoringWorkspace", targets: ["ComposableAuthoringWorkspace"]),
  ],
  targets: [
    .target(name: "ComposableCore", path: "Sources/ComposableCore"),
    .target(
      name: "ComposableTesting",
      dependencies: ["ComposableCore"],
      path: "Sources/ComposableTesting"
    ),
    .target(name: "ComposableAuthoring", dependencies: ["ComposableCore"], path: "Sources/Authoring"),
    .target(name: "ComposableWorkspace", dependencies: ["ComposableCore"], path: "Sources/Workspace"),
    .target(
      name: "ComposableAuthoringWorkspace",
      dependencies: ["ComposableCore", "ComposableAuthoring", "ComposableWorkspace"],
      path: "Sources/AuthoringWorkspace"
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
  ]
)
