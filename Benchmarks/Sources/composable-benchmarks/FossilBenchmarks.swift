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
  let prepare: Summary
  let preparePlain: Summary
  let idleLooksFirstMinute: Summary
  let idleLooksPerMinute: Summary
  let signIn: Summary
  let signInPlain: Summary
}

/// The `fossil` group, against local `fossil server`s (2.21) serving fresh repositories:
///
/// - **Publication** (`fossil_publish_ms` against `fossil_publish_plain_ms`): one user `bench`
///   (capabilities `io`), one file `catalogue.json` (100 one-line events, about 5 KB) on
///   `trunk`. Setup, outside the timing: sign in; prepare workspace `benchmark` through the
///   client; edit the file; capture once; `fossil clone` a plain clone. Then, alternated, each
///   with a new key (so each makes a new proposal branch; trunk does not move): the client's
///   `publishProposal` of the captured change set, and ``PlainFossilCLI/publish(branch:file:content:baseline:)``
///   — the fossil commands the client wraps, run by hand: `pull`, `open` of the baseline in a
///   scratch folder, the file written, `commit --branch`, `push`, `close`. (The plain clone
///   pushes as `nobody`, given check-in for it: plain fossil would otherwise need the password
///   in its URL.) Checks: every proposal holds the edited content, on a branch of its own.
/// - **Preparation** (`fossil_prepare_1000_ms` against `fossil_clone_open_1000_ms`): a
///   repository of 1,000 files (1 KB each) in one check-in; alternated, the client's
///   `prepareSource` into a fresh root (clone, open, the file list checked), and `fossil clone` +
///   `fossil open` of the same server. Checks: 1,000 files each time.
/// - **Idle watching** (see ``benchmarkIdleWatcher(minutes:)``).
/// - **Sign-in** (`fossil_signin_ms`): `FossilSession.signIn` (JSON login through `POST /json`)
///   and the same request with plain `URLSession` alternate. Fossil answers an already
///   signed-in user with the same token, so every repetition does the same work.
@MainActor
func benchmarkFossil(repetitions: Int, prepareRepetitions: Int) async throws -> FossilSummary {
  let publication = try await FossilBenchmarkServer.with(
    files: ["catalogue.json": FossilBenchmarkServer.catalogue]
  ) { server in try await measurePublication(server, repetitions: repetitions) }
  let preparation = try await FossilBenchmarkServer.with(
    files: FossilBenchmarkServer.thousandFiles
  ) { server in try await measurePreparation(server, repetitions: prepareRepetitions) }
  let idle = try await benchmarkIdleWatcher(minutes: 10)
  return FossilSummary(
    publish: publication.publish, publishPlain: publication.plain, prepare: preparation[0],
    preparePlain: preparation[1], idleLooksFirstMinute: idle.firstMinute,
    idleLooksPerMinute: idle.perMinute, signIn: publication.signIn,
    signInPlain: publication.signInPlain)
}

@MainActor
private func measurePublication(_ server: FossilBenchmarkServer, repetitions: Int) async throws
  -> (publish: Summary, plain: Summary, signIn: Summary, signInPlain: Summary)
{
  let session = FossilSession(baseURL: server.url)
  _ = try await session.signIn(name: "bench", password: server.password)
  let client = server.client(session, root: server.folder.appendingPathComponent("workspaces"))
  let prepared = try await client.prepareSource("benchmark")
  let file = prepared.source.files.appendingPathComponent("catalogue.json")
  let edited = try Data(contentsOf: file) + Data("{\"edited\": true}\n".utf8)
  try edited.write(to: file)
  let changes = try await client.captureChanges(prepared.source, prepared.baseline)
  try check(
    changes.changes.map(\.description) == ["M catalogue.json"], "fossil capture: \(changes)")
  let plain = try await PlainFossilCLI.clone(server)

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
            branch: "proposal-\(UUID().uuidString.lowercased())", file: "catalogue.json",
            content: edited, baseline: prepared.baseline.revision)
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
        try await time { try await plainSignIn(server.url, password: server.password) }
          .milliseconds
      },
    ])
  return (publishes[0], publishes[1], signIns[0], signIns[1])
}

@MainActor
private func measurePreparation(_ server: FossilBenchmarkServer, repetitions: Int) async throws
  -> [Summary]
{
  let session = FossilSession(baseURL: server.url)
  _ = try await session.signIn(name: "bench", password: server.password)
  let expected = FossilBenchmarkServer.thousandFiles.count
  return try await measureInterleavedAsync(
    repetitions: repetitions,
    [
      {
        let root = server.scratch("prepare")
        let client = server.client(session, root: root)
        let elapsed = try await time { _ = try await client.prepareSource("large") }
        let files = client.workingCopy(for: "large").files
        try check(
          try PlainFossilCLI.fileCount(in: files) == expected,
          "fossil prepare: not \(expected) files in \(files.path)")
        try FileManager.default.removeItem(at: root)
        return elapsed.milliseconds
      },
      {
        let folder = server.scratch("clone-open")
        let elapsed = try await time { try await PlainFossilCLI.cloneAndOpen(server, in: folder) }
        let files = folder.appendingPathComponent("checkout")
        try check(
          try PlainFossilCLI.fileCount(in: files) == expected,
          "fossil clone + open: not \(expected) files in \(files.path)")
        try FileManager.default.removeItem(at: folder)
        return elapsed.milliseconds
      },
    ])
}

/// The sign-in request (`POST /json`, command `login`) with plain `URLSession`, checked for
/// its login cookie.
private func plainSignIn(_ url: URL, password: String) async throws {
  let configuration = URLSessionConfiguration.ephemeral
  configuration.httpShouldSetCookies = false
  let session = URLSession(configuration: configuration)
  var request = URLRequest(url: url.appendingPathComponent("json"))
  request.httpMethod = "POST"
  request.setValue("application/json", forHTTPHeaderField: "Content-Type")
  request.httpBody = try JSONSerialization.data(withJSONObject: [
    "command": "login", "payload": ["name": "bench", "password": password],
  ])
  let (_, response) = try await session.data(for: request)
  guard let http = response as? HTTPURLResponse,
    http.value(forHTTPHeaderField: "Set-Cookie")?.hasPrefix("fossil-") == true
  else { throw BenchmarkFailure("plain fossil sign-in: no login cookie") }
}
