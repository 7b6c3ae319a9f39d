import ComposableAuthoring
import FossilWorkspace
import Foundation

/// A repository served by `fossil server` in a fresh folder under `$TMPDIR`, removed at the
/// end: one user `bench` (capabilities `io`, a random password), and `nobody` also allowed to
/// check in, so plain `fossil push` needs no password in its URL.
struct FossilBenchmarkServer {
  let folder: URL
  let server: LocalFossilServer
  let password: String

  var url: URL { server.baseURL }
  var fossil: FossilCommand { server.repository.fossil }

  /// Serves a new repository whose `trunk` holds `files` in one check-in.
  static func start(files: [String: Data]) async throws -> FossilBenchmarkServer {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("fossil-bench-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    do {
      let repository = try await LocalFossilRepository.create(
        at: folder.appendingPathComponent("bench.fossil"), fossil: FossilCommand(home: folder))
      let password = UUID().uuidString
      try await repository.addUser("bench", capabilities: "io", password: password)
      try await repository.setCapabilities("gjorzi", of: "nobody")
      try await repository.commit(files, message: "Seed", user: "bench-seed")
      return FossilBenchmarkServer(
        folder: folder, server: try await LocalFossilServer.start(serving: repository),
        password: password)
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw error
    }
  }

  /// Runs `body` with a server of `files`, and stops it however `body` ends.
  @MainActor
  static func with<T>(
    files: [String: Data], _ body: @MainActor (FossilBenchmarkServer) async throws -> T
  ) async throws -> T {
    let server = try await start(files: files)
    do {
      let result = try await body(server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }

  func stop() async {
    await server.stop()
    try? FileManager.default.removeItem(at: folder)
  }

  /// A Fossil workspace client of `bench` on `session`, keeping its workspaces under `root`.
  func client(_ session: FossilSession, root: URL) -> FossilWorkspaceClient {
    let context = AuthoringContext(
      identity: AuthoringIdentity(rawValue: "bench"), grant: AuthoringGrant(rawValue: "bench"),
      capabilities: [.edit, .publish])
    return FossilWorkspaceClient(
      session: session, configuration: FossilWorkspaceConfiguration(root: root),
      capability: { context })
  }

  /// A new folder path inside the server's folder (not created).
  func scratch(_ name: String) -> URL {
    folder.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
  }

  /// `catalogue.json`: 100 one-line events, about 5 KB.
  static let catalogue: Data = {
    let lines = (1...100).map { #"{"id": "e\#($0)", "title": "Event \#($0)", "venue": "Hall"}"# }
    return Data((lines.joined(separator: "\n") + "\n").utf8)
  }()

  /// 1,000 files of 1 KB in 10 folders.
  static let thousandFiles: [String: Data] = Dictionary(
    uniqueKeysWithValues: (0..<1_000).map { index in
      let line = "file \(index): " + String(repeating: "x", count: 48) + "\n"
      return (
        "folder\(index % 10)/file\(index).txt",
        Data(String(repeating: line, count: 1_024 / line.utf8.count + 1).utf8.prefix(1_024))
      )
    })
}

/// The fossil commands the workspace client wraps, run by hand, as a Fossil user would.
struct PlainFossilCLI {
  let server: FossilBenchmarkServer
  /// The plain clone.
  let repository: URL

  /// `fossil clone` of `server` (as `nobody`) into its folder.
  static func clone(_ server: FossilBenchmarkServer) async throws -> PlainFossilCLI {
    let repository = server.folder.appendingPathComponent("plain.fossil")
    try await server.fossil.run(["clone", server.url.absoluteString, repository.path])
    return PlainFossilCLI(server: server, repository: repository)
  }

  /// One proposal by hand: `pull`, `open` of `baseline` in a scratch folder, `file` written,
  /// `commit --branch`, `push`, `close`; answers the new check-in.
  func publish(branch: String, file: String, content: Data, baseline: String) async throws
    -> String
  {
    let fossil = server.fossil
    try await fossil.run(["pull", "-R", repository.path])
    let checkout = server.scratch("plain-checkout")
    try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: checkout) }
    try await fossil.run([
      "open", repository.path, baseline, "--workdir", checkout.path, "--nosync",
    ])
    try content.write(to: checkout.appendingPathComponent(file))
    let output = try await fossil.run(
      ["commit", "--hash", "--nosync", "--no-warnings", "--branch", branch, "-m", "Edit"],
      in: checkout
    ).outputText
    try await fossil.run(["push"], in: checkout)
    try await fossil.run(["close"], in: checkout)
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("New_Version:") })
    else { throw BenchmarkFailure("plain fossil commit: no New_Version line") }
    return line.dropFirst("New_Version:".count).trimmingCharacters(in: .whitespaces)
  }

  /// `fossil clone` + `fossil open` of `server` into `folder` (the check-out in `checkout/`).
  static func cloneAndOpen(_ server: FossilBenchmarkServer, in folder: URL) async throws {
    let checkout = folder.appendingPathComponent("checkout")
    try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
    let repository = folder.appendingPathComponent("clone.fossil")
    try await server.fossil.run(["clone", server.url.absoluteString, repository.path])
    try await server.fossil.run(["open", repository.path, "--workdir", checkout.path])
  }

  /// The regular files under `folder` (fossil's own `.fslckout` left out).
  static func fileCount(in folder: URL) throws -> Int {
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return 0 }
    var count = 0
    for case let path as String in walker where !path.hasSuffix(".fslckout") {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(
        atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
        !isFolder.boolValue
      {
        count += 1
      }
    }
    return count
  }
}
