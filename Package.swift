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
  ],
  targets: [
    .target(name: "ComposableCore", path: "Sources/ComposableCore"),
    .target(
      name: "ComposableTesting",
      dependencies: ["ComposableCore"],
      path: "Sources/ComposableTesting"
    ),
    .testTarget(
      name: "ComposableCoreTests",
      dependencies: ["ComposableCore", "ComposableTesting"]
    ),
    .testTarget(
      name: "ComposableTestingTests",
      dependencies: ["ComposableCore", "ComposableTesting"]
    ),
  ]
)
