/// The repl's commands, documented: the single source of `help` and `COMMAND --help`.
struct CommandSpec: Sendable {
  /// The name typed.
  let name: String
  /// Other names accepted for it.
  let aliases: [String]
  /// The synopsis, for usage lines.
  let usage: String
  /// One line for the command list.
  let summary: String
  /// Further lines for `help COMMAND`.
  let details: [String]

  init(
    _ name: String, aliases: [String] = [], usage: String, _ summary: String, details: [String] = []
  ) {
    self.name = name
    self.aliases = aliases
    self.usage = usage
    self.summary = summary
    self.details = details
  }
}

enum CommandTable {
  static let all: [CommandSpec] = [
    CommandSpec(
      "signin", usage: "signin USER PASSWORD",
      "sign in; an author is admitted and the workspace prepared",
      details: [
        "Accounts: ada/lovelace and grace/hopper may author; linus/torvalds may only read.",
        "Signing in starts a new session, then admission is decided for it; an admitted author's",
        "workspace is prepared (or kept, when it is already ready).",
      ]),
    CommandSpec(
      "signout", usage: "signout", "end the session (the local workspace is kept)"),
    CommandSpec(
      "enter", usage: "enter", "ask to enter authoring (admission for the current session)",
      details: ["Needed after 'leave'. A reader is refused with the policy's reason."]),
    CommandSpec(
      "leave", usage: "leave", "leave authoring: the grant is given up, the workspace stays ready",
      details: ["Without a grant nothing can be edited or proposed until 'enter'."]),
    CommandSpec(
      "status", usage: "status", "session, admission, workspace, edits, proposal form"),
    CommandSpec(
      "list", aliases: ["ls"], usage: "list",
      "the working copy's events, marked against the baseline",
      details: ["Markers: + added, ~ changed (and removed events are listed with -)."]),
    CommandSpec(
      "add", usage: "add ID TITLE… [--date YYYY-MM-DD] [--venue VENUE]",
      "add an event to the working copy",
      details: [
        "The title is the remaining words. --date defaults to TBA, --venue to TBA.",
        "Quote words that belong together: add e4 Poetry Evening --venue \"Old Bookshop\".",
      ]),
    CommandSpec(
      "rename", usage: "rename ID TITLE…", "give an event of the working copy a new title"),
    CommandSpec(
      "reschedule", usage: "reschedule ID YYYY-MM-DD",
      "move an event of the working copy to another day"),
    CommandSpec(
      "remove", aliases: ["rm"], usage: "remove ID", "remove an event from the working copy"),
    CommandSpec(
      "diff", usage: "diff", "capture the working copy's changes against the baseline (a preview)"),
    CommandSpec(
      "propose", usage: "propose TITLE…",
      "publish the changes as a new proposal against the baseline",
      details: [
        "Prints the record: id · content revision · target branch@revision.",
        "Nothing is sent when nothing changed. A failed attempt can be repeated with 'retry'",
        "(same idempotency key, so at most one record is created).",
      ]),
    CommandSpec(
      "retry", usage: "retry", "repeat the last failed proposal attempt with the same key"),
    CommandSpec(
      "fresh", usage: "fresh", "start a fresh proposal: reset the working copy to the baseline",
      details: ["Edits not yet proposed are discarded."]),
    CommandSpec(
      "forget", usage: "forget",
      "remove the local workspace data (the working copy and its baseline)",
      details: [
        "Edits not yet proposed are lost; proposals already created stay on the server.",
        "The workspace becomes inactive; 'enter' (as an author) prepares a fresh copy.",
        "With --state, the state file no longer holds the working copy.",
      ]),
    CommandSpec(
      "proposals", usage: "proposals", "the proposals the server lists (it may lag behind a moment)"
    ),
    CommandSpec(
      "merge", usage: "merge PROPOSAL_ID",
      "as a reviewer, land a proposal on its branch (a new revision)"),
    CommandSpec(
      "discuss", usage: "discuss PROPOSAL [TEXT…]",
      "show a proposal's review discussion; with TEXT, post to it first",
      details: [
        "PROPOSAL is its id, its key, or P1, P2… for the proposals created in this session.",
        "The post is made as the signed-in person (the Fossil backend: a thread of the",
        "repository's forum; an account the forum does not let post is told so).",
      ]),
    CommandSpec(
      "refresh", usage: "refresh", "install the branch's newest revision as the baseline",
      details: ["The working copy keeps its edits; 'fresh' starts over from the new baseline."]),
    CommandSpec(
      "branches", usage: "branches", "the branches and their head revisions"),
    CommandSpec(
      "select", usage: "select BRANCH",
      "switch the baseline to another branch (needs no pending edits)"),
    CommandSpec(
      "help", aliases: ["?"], usage: "help [COMMAND]", "list the commands, or explain one",
      details: ["COMMAND --help does the same."]),
    CommandSpec(
      "quit", aliases: ["exit"], usage: "quit", "leave the shell (end of input does too)"),
  ]

  /// The spec for a name or alias.
  static func spec(named name: String) -> CommandSpec? {
    all.first { $0.name == name || $0.aliases.contains(name) }
  }
}
