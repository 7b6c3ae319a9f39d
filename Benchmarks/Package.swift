// swift-tools-version: 6.1
import PackageDescription

// The benchmark suite of the root package, kept out of its shipped products.
//
//   cd Benchmarks && swift build -c release --scratch-path /tmp/build-bench
//   /tmp/build-bench/release/composable-benchmarks            # table
//   /tmp/build-bench/release/composable-benchmarks --format tsv
//
// SwiftPM names a path dependency after its folder, so the root package's identity is the
// name of the folder that holds this one (whatever the checkout is called).
let rootPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main")
  .lowercased()

let package = Package(
  name: "composable-benchmarks",
  platforms: [.macOS(.v14), .iOS(.v17)],
  dependencies: [.package(path: "..")],
  targets: [
    .executableTarget(
      name: "composable-benchmarks",
      dependencies: [
        .product(name: "ComposableCore", package: rootPackage),
        .product(name: "ComposableTesting", package: rootPackage),
        .product(name: "WorkspaceDemoFeature", package: rootPackage),
        // The `git` group: the Git client, and the types its endpoints take.
        .product(name: "GitWorkspace", package: rootPackage),
        .product(name: "ProcessSupport", package: rootPackage),
        .product(name: "ComposableAuthoring", package: rootPackage),
        .product(name: "ComposableWorkspace", package: rootPackage),
        // The `http` group: the HTTP layer, and the loopback server it is measured against.
        .product(name: "WorkspaceHTTP", package: rootPackage),
        .product(name: "LoopbackHTTPServer", package: rootPackage),
        .product(name: "LoopbackSockets", package: rootPackage),
        // The `fossil` group: the Fossil client against a local `fossil server`.
        .product(name: "FossilWorkspace", package: rootPackage),
        // The `sqlite` group: the SQLite workspace, and the plain C calls of its floors.
        .product(name: "SQLiteWorkspace", package: rootPackage),
        "CSQLiteFloor",
      ]
    ),
    // The system SQLite with the session extension declared, for the `sqlite` group's floors
    // (the root package's CSQLite is not a product; a module of another name, the same library).
    .systemLibrary(
      name: "CSQLiteFloor", path: "Sources/CSQLiteFloor",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
  ]
)
