import Testing

@testable import demo_cli

@MainActor
@Suite("The walk")
struct WalkTests {
  @Test("The transcript shows P1 and P2 against r1, the merge, the refresh to r2 and P3 against r2")
  func transcript() async throws {
    let run = await runCLI([])
    #expect(run.status == 0)
    #expect(run.errors.isEmpty)
    let text = run.output
    #expect(!text.contains("\u{1B}["), "colour is off when the output is not a terminal")
    let expected = [
      "restoreAuthorization",
      "✓ signed in as ada (session \(Describe.fingerprint("session-1")))",
      "authoring: admitted as ada · grant grant-1 · may edit, publish",
      "workspace: ready at published@r1 · 3 events",
      "+ e4 “Poetry Evening” 2027-03-05 @ Old Bookshop",
      "✓ proposal P1 · content c",
      "working copy reset to the baseline published@r1 · 3 events",
      "✓ proposal P2 · content c",
      "✓ P1 merged: published@r2 is the new head",
      "✓ baseline refreshed: published@r1 → published@r2",
      "working copy reset to the baseline published@r2 · 4 events",
      "✓ proposal P3 · content c",
      "✓ P1 and P2 were both created against published@r1",
      "✓ P1 was merged: published@r2 is the new head",
      "✓ the baseline was refreshed from published@r1 to published@r2",
      "✓ P3 was created against published@r2",
    ]
    try expectInOrder(expected, in: text)
    #expect(text.contains(#/P1 · content c[0-9a-f]{16} · target published@r1/#))
    #expect(text.contains(#/P2 · content c[0-9a-f]{16} · target published@r1/#))
    #expect(text.contains(#/P3 · content c[0-9a-f]{16} · target published@r2/#))
    #expect(!text.contains("✗"))
    #expect(!text.contains("session-"), "a session token is printed")
  }

  @Test("The narrator writes to the injected sink, with colour when asked")
  func colour() async {
    let sink = CapturedOutput()
    let host = DemoHost()
    let ok = await Walk(
      executor: CommandExecutor(host: host), narrator: Narrator(sink: sink, style: .color)
    ).run()
    #expect(ok)
    #expect(sink.output.contains("\u{1B}[32m✓\u{1B}[0m"))
  }
}
