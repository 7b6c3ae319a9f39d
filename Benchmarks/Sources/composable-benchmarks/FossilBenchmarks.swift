import ComposableAuthoring
import ComposableWorkspace
import FossilWorkspace
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `fossil` group's figures.
struct FossilSummary {
  let publish: Summary
  let publishPlain: Summary
  let signIn: Summary
  let signInPlain: Summary
}

/// `fossil_publish_ms`, `fossil_signin_ms` and their plain baselines, against a local
/// `fossil server` (2.21) serving a fresh repository: one user `bench` (capabilities `io`),
/// one file `catalogue.json` (100 one-line events, about 5 KB) on `trunk`.
///
/// Setup, outside the timing: start the server; sign in; prepare workspace `benchmark` through
/// the client; edit the file; capture once.
///
/// - Publication: the client's `publishProposal` of the captured change set and
///   ``PlainFossil/publish(key:)`` alternate, each with a new idempotency key, so each creates
///   a new proposal branch; trunk does not move. The plain path makes the very requests the
///   client makes, with plain `URLSession` (its cookie and `Referer` set by hand, no jar, no
///   checks beyond what a correct publication needs): `GET /json/cap`, the proposal lookup,
///   the head of trunk, the dry run, `POST /json/branch/create` (which answers the branch's
///   first check-in), the check-in. Checks: every proposal holds the edited content, on a branch of its own.
/// - Sign-in: `FossilSession.signIn` (JSON login through `POST /json`) and the same request
///   with plain `URLSession` alternate. Fossil answers an already signed-in user with the same
///   token, so every repetition does the same work.
@MainActor
func benchmarkFossil(repetitions: Int) async throws -> FossilSummary {
  let server = try await FossilBenchmarkServer.start()
  do {
    let summary = try await measureFossil(server, repetitions: repetitions)
    await server.stop()
    return summary
  } catch {
    await server.stop()
    throw error
  }
}

@MainActor
private func measureFossil(_ server: FossilBenchmarkServer, repetitions: Int) async throws
  -> FossilSummary
{
  let context = AuthoringContext(
    identity: AuthoringIdentity(rawValue: "bench"), grant: AuthoringGrant(rawValue: "bench"),
    capabilities: [.edit, .publish])
  let session = FossilSession(baseURL: server.url)
  _ = try await session.signIn(name: "bench", password: server.password)
  let client = FossilWorkspaceClient(
    session: session, configuration: FossilWorkspaceConfiguration(root: server.workspaces),
    capability: { context })
  let prepared = try await client.prepareSource("benchmark")
  let file = prepared.source.files.appendingPathComponent("catalogue.json")
  let edited = try Data(contentsOf: file) + Data("{\"edited\": true}\n".utf8)
  try edited.write(to: file)
  let changes = try await client.captureChanges(prepared.source, prepared.baseline)
  try check(
    changes.changes.map(\.description) == ["M catalogue.json"], "fossil capture: \(changes)")
  let plain = try await PlainFossil.signIn(server.url, password: server.password)

  let published = Latest<ProposalRecord>()
  let plainPublished = Latest<String>()
  let publishes = try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      {
        let request = ProposalRequest(
          title: "Edit the catalogue", summary: "Made by composable-benchmarks.",
          idempotencyKey: UUID())
        return try await time {
          published.value = try await client.publishProposal(
            prepared.source, prepared.baseline, changes, request)
        }.milliseconds
      },
      {
        try await time {
          plainPublished.value = try await plain.publish(
            key: UUID().uuidString.lowercased(), content: edited,
            baseline: prepared.baseline.revision)
        }.milliseconds
      },
    ])
  let reader = FossilReader(session: session)
  for revision in [published.value?.contentRevision, plainPublished.value].compactMap({ $0 }) {
    try check(
      try await reader.contents(of: "catalogue.json", at: revision) == edited,
      "fossil publish: check-in \(revision) does not hold the edited file")
  }
  let proposals = try await reader.branches().filter { $0.hasPrefix("proposal-") }
  try check(
    proposals.count == 2 * (repetitions + 1),
    "fossil publish: \(proposals.count) proposal branches, not \(2 * (repetitions + 1))")
  try check(
    try await reader.head(of: "trunk") == prepared.baseline.revision, "fossil publish: trunk moved")

  let signIns = try await measureInterleavedAsync(
    repetitions: 2 * repetitions + 1,
    [
      {
        try await time {
          let user = try await session.signIn(name: "bench", password: server.password)
          try check(user.name == "bench", "fossil sign-in: \(user)")
        }.milliseconds
      },
      {
        try await time { _ = try await PlainFossil.signIn(server.url, password: server.password) }
          .milliseconds
      },
    ])
  return FossilSummary(
    publish: publishes[0], publishPlain: publishes[1], signIn: signIns[0],
    signInPlain: signIns[1])
}

/// A repository served by `fossil server` in a fresh folder under `$TMPDIR`, removed at the end.
struct FossilBenchmarkServer {
  let folder: URL
  let server: LocalFossilServer
  let password: String

  var url: URL { server.baseURL }
  var workspaces: URL { folder.appendingPathComponent("workspaces", isDirectory: true) }

  static func start() async throws -> FossilBenchmarkServer {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("fossil-bench-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    do {
      let repository = try await LocalFossilRepository.create(
        at: folder.appendingPathComponent("bench.fossil"), fossil: FossilCommand(home: folder))
      let server = FossilBenchmarkServer(
        folder: folder,
        server: try await start(repository),
        password: UUID().uuidString)
      try await repository.addUser("bench", capabilities: "io", password: server.password)
      return server
    } catch {
      try? FileManager.default.removeItem(at: folder)
      throw error
    }
  }

  private static func start(_ repository: LocalFossilRepository) async throws -> LocalFossilServer {
    try await repository.setSetting("fileedit-glob", to: "*")
    let lines = (1...100).map { #"{"id": "e\#($0)", "title": "Event \#($0)", "venue": "Hall"}"# }
    try await repository.commit(
      ["catalogue.json": Data((lines.joined(separator: "\n") + "\n").utf8)], message: "Seed",
      user: "bench-seed")
    return try await LocalFossilServer.start(serving: repository)
  }

  func stop() async {
    await server.stop()
    try? FileManager.default.removeItem(at: folder)
  }
}

/// The client's publication requests made plainly, with `URLSession`.
struct PlainFossil {
  let url: URL
  let cookie: String
  let session: URLSession

  /// Signs in (`POST /json`, command `login`) and keeps the login cookie.
  static func signIn(_ url: URL, password: String) async throws -> PlainFossil {
    let session = URLSession(configuration: plainConfiguration())
    var request = URLRequest(url: url.appendingPathComponent("json"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(url.absoluteString + "/", forHTTPHeaderField: "Referer")
    request.httpBody = try JSONSerialization.data(withJSONObject: [
      "command": "login", "payload": ["name": "bench", "password": password],
    ])
    let (_, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse,
      let setCookie = http.value(forHTTPHeaderField: "Set-Cookie"),
      let pair = setCookie.split(separator: ";").first, pair.hasPrefix("fossil-")
    else { throw BenchmarkFailure("plain fossil sign-in: no login cookie") }
    return PlainFossil(url: url, cookie: String(pair), session: session)
  }

  /// The client's requests for a one-file proposal; answers the proposal's check-in.
  func publish(key: String, content: Data, baseline: String) async throws -> String {
    let branch = "proposal-\(key)"
    let cap = try await json(get: "/json/cap")
    try check((cap["payload"] as? [String: Any])?["name"] as? String == "bench", "plain: cap")
    let lookup = try await json(get: "/json/artifact", ["name": "tag:\(branch)"])
    try check(lookup["resultCode"] as? String == "FOSSIL-3006", "plain: the branch exists")
    let head = try await json(get: "/json/artifact", ["name": "tag:trunk"])
    try check(uuid(head) == baseline, "plain: trunk moved")
    let text = String(decoding: content, as: UTF8.self)
    let form = [
      "filename": "catalogue.json", "content": text, "comment": "Edit the catalogue",
      "allow_fork": "0", "exec_bit": "0",
    ]
    _ = try await post(
      "/fileedit/commit", form: form.merging(["checkin": baseline, "dry_run": "1"]) { $1 })
    let created = try await post(
      "/json/branch/create",
      json: ["payload": ["name": branch, "basis": baseline]])
    let tip = uuid(created)
    try check(!tip.isEmpty, "plain: branch not created")
    let committed = try await post(
      "/fileedit/commit", form: form.merging(["checkin": tip, "dry_run": "0"]) { $1 })
    guard let checkIn = committed["checkin"] as? String else {
      throw BenchmarkFailure("plain: no check-in in \(committed)")
    }
    return checkIn
  }

  private func uuid(_ answer: [String: Any]) -> String {
    (answer["payload"] as? [String: Any])?["uuid"] as? String ?? ""
  }

  private func json(get path: String, _ query: [String: String] = [:]) async throws -> [String: Any]
  {
    var components = URLComponents(
      url: url.appendingPathComponent(path), resolvingAgainstBaseURL: false)
    if !query.isEmpty {
      components?.queryItems = query.map { URLQueryItem(name: $0.key, value: $0.value) }
    }
    guard let target = components?.url else { throw BenchmarkFailure("plain: bad URL") }
    var request = URLRequest(url: target)
    request.setValue(cookie, forHTTPHeaderField: "Cookie")
    return try await send(request)
  }

  private func post(_ path: String, json body: [String: Any]) async throws -> [String: Any] {
    var request = writeRequest(path)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: body)
    return try await send(request)
  }

  private func post(_ path: String, form: [String: String]) async throws -> [String: Any] {
    var request = writeRequest(path)
    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._*"))
    request.httpBody = Data(
      form.map { key, value in
        "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
      }.joined(separator: "&").utf8)
    return try await send(request)
  }

  private func writeRequest(_ path: String) -> URLRequest {
    var request = URLRequest(url: url.appendingPathComponent(path))
    request.httpMethod = "POST"
    request.setValue(cookie, forHTTPHeaderField: "Cookie")
    request.setValue(url.absoluteString + "/", forHTTPHeaderField: "Referer")
    return request
  }

  private func send(_ request: URLRequest) async throws -> [String: Any] {
    let (body, _) = try await session.data(for: request)
    guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
      throw BenchmarkFailure("plain: not a JSON object")
    }
    return object
  }
}
