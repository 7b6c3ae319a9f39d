import ComposableWorkspace
import Testing
import WorkspaceDemoFeature

@testable import demo_cli

@MainActor
@Suite("Repl: command handling")
struct ReplTests {
  @Test("A wrong password is refused in one line and the piped session exits non-zero")
  func wrongPassword() async {
    let run = await runCLI(["repl"], input: ["signin ada wrong", "quit"])
    #expect(run.status == 1)
    #expect(run.output.contains("✗ sign-in refused: wrong password for ada"))
    #expect(!run.output.contains("wrong\n"), "the password is echoed")
    #expect(run.output.contains("› signin ada ********"))
    #expect(run.errors.isEmpty)
  }

  @Test("A clean piped session exits 0; a failing interactive one does too, with a prompt")
  func exitStatus() async {
    let clean = await runCLI(["repl"], input: ["signin ada lovelace", "status"])
    #expect(clean.status == 0)
    #expect(clean.output.contains("✓ signed in as ada"))
    #expect(!clean.output.contains("demo>"))

    let interactive = await runCLI(["repl"], input: ["statsu", "quit"], interactive: true)
    #expect(interactive.status == 0)
    #expect(interactive.output.contains("demo> "))
    #expect(interactive.output.contains("unknown command 'statsu'"))
  }

  @Test("Unknown commands and wrong arity fail, and the shell goes on")
  func parseErrors() async {
    let run = await runCLI(
      ["repl"], input: ["porpose", "signin ada", "merge", "signin ada lovelace"])
    #expect(run.status == 1)
    #expect(
      run.output.contains("✗ unknown command 'porpose'; type 'help' for the list of commands"))
    #expect(run.output.contains("✗ wrong arguments for signin; usage: signin USER PASSWORD"))
    #expect(run.output.contains("› signin ********"), "a malformed signin line is echoed masked")
    #expect(run.output.contains("✗ wrong arguments for merge; usage: merge PROPOSAL_ID"))
    #expect(run.output.contains("✓ signed in as ada"), "the shell stopped early")
  }

  @Test("help lists every command; help COMMAND and COMMAND --help explain one")
  func help() async throws {
    let executor = await makeExecutor()
    let list = try await executor.run("help").text
    for spec in CommandTable.all { #expect(list.contains(spec.usage)) }
    let one = try await executor.run("help add").text
    #expect(one.contains("usage: add ID TITLE… [--date YYYY-MM-DD] [--venue VENUE]"))
    #expect(try await executor.run("add --help").text == one)
  }

  @Test("Signing in admits an author and prepares the workspace at published@r1")
  func signIn() async throws {
    let executor = await makeExecutor()
    let outcome = try await executor.run("signin ada lovelace")
    #expect(!outcome.failed)
    #expect(outcome.text.contains("authoring: admitted as ada · grant grant-1 · may edit, publish"))
    #expect(outcome.text.contains("workspace: ready at published@r1 · 3 events"))
    #expect(
      executor.host.session?.baseline
        == WorkspaceBranchReference(branch: "published", revision: "r1"))
  }

  @Test("A reader is signed in but denied; entering fails with the policy's reason")
  func reader() async throws {
    let executor = await makeExecutor()
    #expect(
      try await executor.run("signin linus torvalds").text.contains(
        "authoring denied: Linus may read but not author"))
    let enter = try await executor.run("enter")
    #expect(enter.failed)
    #expect(enter.text == "authoring denied: Linus may read but not author")
  }

  @Test("Editing while the workspace is not ready is refused in one line")
  func notReady() async throws {
    let executor = await makeExecutor()
    for line in [
      "add e4 Talk", "rename e1 X", "remove e1", "diff", "propose Nothing", "fresh", "list",
      "refresh",
    ] {
      let outcome = try await executor.run(line)
      #expect(outcome.failed, "\(line) did not fail")
      #expect(outcome.lines.count == 1)
      #expect(
        outcome.text.contains("the workspace is not ready (inactive)"), "\(line): \(outcome.text)")
    }
  }

  @Test("'discuss' on a backend without a discussion says which backend keeps one")
  func discussionElsewhere() async throws {
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace", "add e9 Talk", "propose Talk")
    let outcome = try await executor.run("discuss P1 Looks good")
    #expect(outcome.failed)
    #expect(
      outcome.text
        == "proposals on an in-memory system have no discussion (the Fossil backend keeps one on its forum)"
    )
  }

  @Test("Proposing with nothing changed sends nothing and says so")
  func nothingChanged() async throws {
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace")
    let outcome = try await executor.run("propose Nothing")
    #expect(outcome.failed)
    #expect(
      outcome.text == "nothing to propose: the working copy has no changes against published@r1")
    #expect(try await executor.host.memory.allProposals().isEmpty)
  }

  @Test("After leave, proposing is refused for want of a grant; after enter, retry publishes")
  func publishWithoutGrant() async throws {
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace", "add e4 Poetry Evening")
    let leave = try await executor.run("leave")
    #expect(leave.text.contains("left authoring: grant grant-1 given up"))

    let propose = try await executor.run("propose Poetry")
    #expect(propose.failed)
    #expect(propose.text == "no proposal created: not authorized to propose; enter authoring first")
    #expect(executor.host.context == nil, "proposing re-admitted the person who left")
    #expect(try await executor.host.memory.allProposals().isEmpty)

    let edit = try await executor.run("rename e1 Other")
    #expect(edit.failed)
    #expect(edit.text == "not admitted to authoring; 'enter' before you edit")

    try await executor.run("enter")
    let retry = try await executor.run("retry")
    #expect(!retry.failed)
    #expect(retry.text.contains("proposal P1 · content c"))
    #expect(retry.text.contains("· target published@r1"))
  }

  @Test("Edits are checked against the working copy")
  func edits() async throws {
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace")
    #expect(try await executor.run("add e1 Again").text.contains("there is already an event e1"))
    #expect(try await executor.run("rename e9 X").text.contains("there is no event e9"))
    #expect(try await executor.run("remove e9").failed)
    #expect(
      try await executor.run("add e4 Poetry Evening --date 2027-03-05 --venue Bookshop").text
        == "added e4 “Poetry Evening” 2027-03-05 @ Bookshop")
    #expect(
      try await executor.run("rename e2 Spring Book Fair").text
        == "renamed e2: “Book Fair” → “Spring Book Fair”")
    #expect(
      try await executor.run("reschedule e1 2026-12-19").text.contains("2026-12-12 → 2026-12-19"))
    #expect(
      try await executor.run("remove e3").text == "removed e3 “Science Night” 2027-02-06 @ Museum")
    let list = try await executor.run("list").text
    #expect(list.contains("+ e4 “Poetry Evening”"))
    #expect(list.contains("~ e2 “Spring Book Fair”"))
    #expect(list.contains("- e3 “Science Night”"))
    let diff = try await executor.run("diff").text
    #expect(diff.contains("change set against published@r1:"))
    #expect(diff.contains("+ e4 “Poetry Evening” 2027-03-05 @ Bookshop"))
    #expect(diff.contains("- e3 “Science Night” 2027-02-06 @ Museum"))
  }

  @Test("Merging, refreshing and proposing again: P2 targets the new revision")
  func mergeAndRefresh() async throws {
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace", "add e4 Poetry Evening")
    #expect(try await executor.run("propose Poetry").text.contains("P1 · content c"))
    let merge = try await executor.run("merge P1")
    #expect(!merge.failed)
    #expect(merge.lines.first?.text == "P1 merged: published@r2 is the new head")
    #expect(
      merge.text.contains("the baseline published@r1 is behind the new head; 'refresh' installs it")
    )
    let again = try await executor.run("merge P1")
    #expect(again.failed)
    #expect(again.text == "merge refused: proposal P1 is not open")
    #expect(try await executor.run("merge P9").text == "merge refused: there is no proposal P9")
    #expect(
      try await executor.run("refresh").text.contains(
        "baseline refreshed: published@r1 → published@r2"))
    #expect(
      try await executor.run("refresh").text.contains("published@r2 is already the newest revision")
    )
    #expect(
      try await executor.run("fresh").text.contains(
        "working copy reset to the baseline published@r2 · 4 events"))
    try await executor.run("remove e1")
    #expect(try await executor.run("propose Drop the concert").text.contains("P2 · content c"))
    #expect(
      try await executor.run("propose Drop the concert").text.contains("· target published@r2"))
  }

  @Test("Branches and selection; selection refuses pending edits")
  func branches() async throws {
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace")
    let branches = try await executor.run("branches").text
    #expect(branches.contains("festival · head r1"))
    #expect(branches.contains("published · head r1 · baseline published@r1"))
    try await executor.run("add e4 Talk")
    let refused = try await executor.run("select festival")
    #expect(refused.failed)
    #expect(refused.text.contains("could not select festival"))
    try await executor.run("fresh")
    #expect(
      try await executor.run("select festival").text
        == "baseline is now festival@r1; working copy reset to its 2 events")
  }

  @Test("The proposal listing lags behind; records created here are named")
  func listing() async throws {
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace", "add e4 Talk", "propose Talk")
    #expect(
      try await executor.run("proposals").text.contains("P1 was created here but is not listed yet")
    )
    #expect(try await executor.run("proposals").text.contains("P1 “Talk” by ada"))
  }

  @Test("Sign-out keeps the workspace; status reads the whole state")
  func signOutAndStatus() async throws {
    let executor = await makeExecutor()
    #expect(try await executor.run("signout").failed)
    try await executor.run("signin ada lovelace", "add e4 Talk")
    let status = try await executor.run("status").text
    #expect(status.contains("session: ada (session \(Describe.fingerprint("session-1")))"))
    #expect(!status.contains("session-1"), "the session token is printed")
    #expect(status.contains("edits against published@r1: +1 ~0 -0"))
    let out = try await executor.run("signout")
    #expect(out.text.contains("workspace: ready at published@r1 · 4 events (kept on this device)"))
    #expect(executor.host.context == nil)
  }

  @Test("When the server stops honouring the grant, a command that needed it says so")
  func grantRevoked() async throws {
    let executor = await makeExecutor()
    try await executor.run("signin ada lovelace", "add e4 Talk")
    try await executor.host.memory.revokeAllGrants()
    let diff = try await executor.run("diff")
    #expect(diff.failed)
    #expect(diff.text == "the authoring grant is no longer valid; 'enter' to be admitted again")
    #expect(executor.host.session?.source.events[id: "e4"] != nil, "the ready session was not kept")
    #expect(try await executor.run("enter").text.contains("admitted as ada · grant grant-2"))
    #expect(try await executor.run("propose Talk").text.contains("proposal P1"))
  }
}
