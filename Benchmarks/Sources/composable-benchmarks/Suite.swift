/// The benchmarks in run order, each with the figures (and targets) it reports.
///
/// Targets are the project's, for this 2-core machine in a release build. Figures without a
/// target are extras that help explain the targeted ones.
enum Suite {
  /// Benchmark groups, for `--only`. `send` covers the floor, the root store and the 10-deep
  /// scoped store, whose figures are compared with each other.
  static let names = [
    "cancel", "send", "observed", "foreach", "effect", "sibling", "teststore", "demo", "http",
    "fossil", "sqlite", "git",
  ]

  @MainActor
  static func run(
    only selected: Set<String>?, quick: Bool, progress: (String) -> Void
  ) async throws -> [Figure] {
    func wanted(_ name: String) -> Bool { selected?.contains(name) ?? true }
    /// `--quick` (for profilers): a tenth of the work, three repetitions.
    func ops(_ count: Int) -> Int { quick ? max(count / 10, 1) : count }
    func reps(_ count: Int) -> Int { quick ? min(count, 3) : count }
    var figures: [Figure] = []

    // First: its resident-memory figure must not be hidden by memory that earlier benchmarks
    // left free in the allocator (later repetitions reuse what earlier ones freed).
    if wanted("cancel") {
      progress("cancel")
      let cancel = try await benchmarkCancel(count: 10_000, repetitions: reps(5))
      figures += [
        Figure("cancel_10k_ms", cancel.total, unit: "ms", target: .atMost(50)),
        Figure("cancel_registry_left", cancel.registryLeft, unit: "count", target: .exactly(0)),
        Figure("cancel_10k_rss_mb", cancel.residentGrowth, unit: "MB", target: .atMost(20)),
        Figure("cancel_10k_start_ms", cancel.start, unit: "ms"),
        Figure("cancel_10k_cancel_ms", cancel.cancel, unit: "ms"),
        Figure("cancel_10k_floor_ms", cancel.floorTotal, unit: "ms"),
        Figure("cancel_10k_floor_rss_mb", cancel.floorResidentGrowth, unit: "MB"),
        Figure(
          "cancel_10k_vs_floor", ratio(cancel.total, cancel.floorTotal), unit: "x",
          target: .atMost(1.5)),
        Figure(
          "cancel_10k_rss_vs_floor", ratio(cancel.residentGrowth, cancel.floorResidentGrowth),
          unit: "x", target: .atMost(1.25)),
      ]
    }
    if wanted("send") {
      progress("send")
      let operations = ops(100_000)
      let sends = try measureInterleaved(
        repetitions: reps(11),
        [
          { try floorSendRepetition(observed: false, operations: operations) },
          { try storeSendRepetition(observed: false, operations: operations) },
          { try scoped10SendRepetition(operations: operations / 4) },
          { try nested10RootSendRepetition(operations: operations / 4) },
          { try scopeCallRepetition(operations: operations) },
          { try scopeUncachedRepetition(operations: operations / 10) },
        ])
      let (floor, store, scoped, nestedRoot) = (sends[0], sends[1], sends[2], sends[3])
      let (scopeCall, scopeUncached) = (sends[4], sends[5])
      figures += [
        Figure("floor_send_ns", floor, unit: "ns"),
        Figure("store_send_ns", store, unit: "ns"),
        Figure("store_send_ratio", ratio(store, floor), unit: "x", target: .atMost(1.5)),
        Figure("scoped10_send_ns", scoped, unit: "ns"),
        Figure("scoped10_ratio", ratio(scoped, store), unit: "x"),
        Figure("nested10_root_send_ns", nestedRoot, unit: "ns"),
        Figure(
          "scoped10_vs_nested_root_ratio", ratio(scoped, nestedRoot), unit: "x",
          target: .atMost(1.5)),
        Figure("scoped_level_ns", perLevel(scoped, nestedRoot, levels: 10), unit: "ns"),
        Figure("scope_call_ns", scopeCall, unit: "ns"),
        Figure("scope_uncached_ns", scopeUncached, unit: "ns"),
      ]
    }
    if wanted("observed") {
      progress("observed")
      let operations = ops(50_000)
      let sends = try measureInterleaved(
        repetitions: reps(11),
        [
          { try floorSendRepetition(observed: true, operations: operations) },
          { try storeSendRepetition(observed: true, operations: operations) },
        ])
      figures += [
        Figure("floor_send_observed_ns", sends[0], unit: "ns"),
        Figure("store_send_observed_ns", sends[1], unit: "ns"),
        Figure(
          "store_send_observed_ratio", ratio(sends[1], sends[0]), unit: "x", target: .atMost(1.2)),
      ]
    }
    if wanted("foreach") {
      progress("foreach")
      let operations = ops(100_000)
      let sends = try measureInterleaved(
        repetitions: reps(11),
        [
          { try forEachSendRepetition(count: 10, operations: operations) },
          { try forEachSendRepetition(count: 100_000, operations: operations) },
        ])
      figures += [
        Figure("foreach_10_ns", sends[0], unit: "ns"),
        Figure("foreach_100k_ns", sends[1], unit: "ns"),
        Figure("foreach_growth", ratio(sends[1], sends[0]), unit: "x", target: .atMost(1.5)),
      ]
    }
    if wanted("effect") {
      progress("effect")
      let effect = try await benchmarkEffects(
        effects: ops(20_000), roundTrips: ops(5_000), repetitions: reps(5))
      figures += [
        Figure("effect_roundtrip_per_s", effect.roundtrip, unit: "1/s", target: .atLeast(100_000)),
        Figure("effect_roundtrip_floor_per_s", effect.roundtripFloor, unit: "1/s"),
        Figure(
          "effect_roundtrip_floor_ratio", ratio(effect.roundtripFloor, effect.roundtrip),
          unit: "x", target: .atMost(1.5)),
        Figure("effect_roundtrip_latency_ns", effect.latency, unit: "ns"),
        Figure("effect_roundtrip_latency_floor_ns", effect.latencyFloor, unit: "ns"),
        Figure(
          "effect_roundtrip_latency_vs_floor", ratio(effect.latency, effect.latencyFloor),
          unit: "x", target: .atMost(1.5)),
      ]
    }
    if wanted("sibling") {
      progress("sibling")
      let (quiet, control) = try await benchmarkSiblingWakeups(
        operations: ops(100_000), repetitions: reps(5))
      figures += [
        Figure("sibling_wakeups", quiet, unit: "count", target: .exactly(0)),
        Figure("sibling_control_wakeups", control, unit: "count"),
      ]
    }
    if wanted("teststore") {
      progress("teststore")
      let story = try await benchmarkTestStoreStory(rounds: ops(100), repetitions: reps(5))
      figures.append(Figure("teststore_1k_steps_ms", story, unit: "ms", target: .atMost(1_000)))
    }
    if wanted("demo") {
      progress("demo")
      let walk = try await benchmarkDemoWalk(repetitions: reps(5))
      figures.append(Figure("demo_walk_ms", walk, unit: "ms"))
    }
    if wanted("http") {
      progress("http")
      let http = try await benchmarkHTTP(
        requests: ops(500), events: ops(20_000), repetitions: reps(11))
      figures += [
        Figure("http_request_us", http.request, unit: "µs"),
        Figure("http_request_plain_us", http.requestPlain, unit: "µs"),
        Figure(
          "http_request_ratio", ratio(http.request, http.requestPlain), unit: "x",
          target: .atMost(1.3)),
        Figure("sse_events_per_s", http.eventsPerSecond, unit: "1/s"),
        Figure("pkce_signin_ms", http.signIn, unit: "ms"),
        Figure(
          "server_threads_at_3000_idle", try await benchmarkServerThreads(connections: 3000),
          unit: "count"),
      ]
    }
    if wanted("fossil") {
      progress("fossil")
      let fossil = try await benchmarkFossil(
        repetitions: reps(21), prepareRepetitions: reps(7))
      figures += [
        Figure("fossil_publish_ms", fossil.publish, unit: "ms"),
        Figure("fossil_publish_plain_ms", fossil.publishPlain, unit: "ms"),
        Figure(
          "fossil_publish_ratio", ratio(fossil.publish, fossil.publishPlain), unit: "x",
          target: .atMost(1.5)),
        Figure("fossil_prepare_1000_ms", fossil.prepare, unit: "ms"),
        Figure("fossil_clone_open_1000_ms", fossil.preparePlain, unit: "ms"),
        Figure(
          "fossil_prepare_1000_vs_clone", ratio(fossil.prepare, fossil.preparePlain), unit: "x",
          target: .atMost(2)),
        Figure(
          "fossil_idle_looks_first_min", fossil.idleLooksFirstMinute, unit: "count",
          target: .atMost(30)),
        Figure("fossil_idle_looks_per_min", fossil.idleLooksPerMinute, unit: "count"),
        Figure("fossil_signin_ms", fossil.signIn, unit: "ms"),
        Figure("fossil_signin_plain_ms", fossil.signInPlain, unit: "ms"),
      ]
    }
    if wanted("sqlite") {
      progress("sqlite")
      let sqlite = try await benchmarkSQLite(
        rows: ops(10_000), largeRows: ops(100_000), hugeRows: ops(1_000_000),
        repetitions: reps(21), largeRepetitions: reps(11), hugeRepetitions: reps(11))
      figures += [
        Figure("sqlite_capture_10k_rows_100_changed_ms", sqlite.capture, unit: "ms"),
        Figure("sqlite_capture_plain_10k_ms", sqlite.capturePlain, unit: "ms"),
        Figure(
          "sqlite_capture_ratio", ratio(sqlite.capture, sqlite.capturePlain), unit: "x",
          target: .atMost(1.3)),
        Figure("sqlite_publish_ms", sqlite.publish, unit: "ms"),
        Figure("sqlite_publish_plain_ms", sqlite.publishPlain, unit: "ms"),
        Figure(
          "sqlite_publish_ratio", ratio(sqlite.publish, sqlite.publishPlain), unit: "x",
          target: .atMost(1.5)),
        Figure("sqlite_capture_100k_ms", sqlite.captureLarge, unit: "ms"),
        Figure("sqlite_capture_plain_100k_ms", sqlite.capturePlainLarge, unit: "ms"),
        Figure("sqlite_capture_1m_ms", sqlite.captureHuge, unit: "ms"),
        Figure("sqlite_capture_plain_1m_ms", sqlite.capturePlainHuge, unit: "ms"),
        Figure(
          "sqlite_capture_1m_ratio", ratio(sqlite.captureHuge, sqlite.capturePlainHuge),
          unit: "x"),
        Figure(
          "sqlite_capture_growth_10k_to_1m", ratio(sqlite.captureHuge, sqlite.capture), unit: "x"),
        Figure("sqlite_build_1m_ms", sqlite.buildHuge, unit: "ms"),
        Figure("sqlite_prepare_1m_ms", sqlite.prepareHuge, unit: "ms"),
      ]
    }
    // Last: it writes 10,000 files and spawns git processes, which the others need not meet.
    if wanted("git") {
      progress("git")
      let git = try await benchmarkGit(files: ops(10_000), repetitions: reps(21))
      figures += [
        Figure("git_capture_ms", git.capture, unit: "ms"),
        Figure("git_capture_plain_ms", git.capturePlain, unit: "ms"),
        Figure(
          "git_capture_ratio", ratio(git.capture, git.capturePlain), unit: "x",
          target: .atMost(1.5)),
        Figure("git_publish_ms", git.publish, unit: "ms"),
        Figure("git_publish_plain_ms", git.publishPlain, unit: "ms"),
        Figure(
          "git_publish_ratio", ratio(git.publish, git.publishPlain), unit: "x",
          target: .atMost(1.5)),
        Figure("git_call_ms", git.call, unit: "ms"),
      ]
    }
    return figures
  }
}
