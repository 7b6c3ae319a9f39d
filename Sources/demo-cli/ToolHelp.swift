/// The tool's `--help` text and usage line.
enum ToolHelp {
  static let usage =
    "usage: demo-cli [--backend git --remote PATH|new] [--state FILE] [--no-color] [walk | repl | help]"

  static var text: String {
    var lines = [
      "demo-cli — the Composable Workspace demo on an in-memory system or a Git remote",
      "",
      usage,
      "",
      "Subcommands:",
      "  walk          (default) walk the whole story and narrate it: sign-in, admission,",
      "                preparation, edits, proposals P1 and P2 against the first revision,",
      "                a reviewer's merge, refreshing Published, and P3 against the new revision",
      "  repl          an interactive shell over the same store; reads commands from a pipe too",
      "  help          this text",
      "",
      "Options:",
      "  --backend memory",
      "                (default) the catalogue, proposals and workspace on an in-memory system",
      "  --backend git --remote PATH|new",
      "                the catalogue, proposals and workspace on a Git remote; accounts, sessions",
      "                and admission stay in memory. The catalogue is the branch 'published', one",
      "                JSON file per event (events/<id>.json); a proposal is a commit at",
      "                refs/proposals/<key>; a merge moves the branch. PATH is an existing",
      "                repository (bare, or a URL git understands), seeded with 'published' and",
      "                'festival' when it has no refs yet; 'new' creates a bare repository in a",
      "                temporary folder and prints its path (it stays after the run), with a hook",
      "                that refuses a proposal whose branch moved before it was written. On a",
      "                remote without that hook, demo-cli looks again after each push and",
      "                withdraws a proposal whose branch moved meanwhile (reported, never ✓).",
      "                Revisions are commit hashes, shown abbreviated (published@1a2b3c4).",
      "                Working copies (Git worktrees) go in a private temporary folder removed",
      "                at exit (and on SIGINT/SIGTERM), or with --state in FILE.workspaces",
      "                beside the state file. A PATH that is not a repository",
      "                is refused in one line, exit status 1.",
      "  --state FILE  keep the system, the credentials (session and persisted grant, never a",
      "                password) and the local workspace in FILE between runs; saved after every",
      "                command and at the end of the walk (atomically, mode 0600). On reopen the",
      "                persisted grant is revalidated and a ready workspace comes back with its",
      "                edits, not re-prepared; a publication a crash interrupted is sent again",
      "                with its key ('status' shows it until then). FILE must be yours and",
      "                private (mode 0600, not a symbolic link), and one demo-cli at a time uses",
      "                it (it holds FILE.lock for its session). A FILE that is unreadable,",
      "                corrupt (a number out of range included), open to others, in use, made",
      "                with another backend or remote, or whose workspace baseline does not",
      "                exist is left untouched and the tool exits with status 1. Working copies",
      "                beside it (FILE.workspaces) are 0700.",
      "  --no-color    no ANSI colours (they are used only when standard output is a terminal",
      "                and NO_COLOR is not set to a non-empty value)",
      "  -h, --help    this text",
      "",
      "Repl commands:",
    ]
    let width = CommandTable.all.map(\.usage.count).max() ?? 0
    for spec in CommandTable.all {
      lines.append("  " + spec.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + spec.summary)
    }
    lines += [
      "",
      "In the repl, 'help COMMAND' or 'COMMAND --help' explains a command. Words are separated by",
      "spaces; quote words that belong together (\"Town Hall\"). Blank lines and lines starting",
      "with # are ignored. Results and refusals are printed to standard output, one line each.",
      "",
      "Accounts: ada/lovelace and grace/hopper may author; linus/torvalds may only read.",
      "",
      "Exit status:",
      "  0  the walk completed / the repl ended and no command failed",
      "  1  a step of the walk failed; in non-interactive repl use (standard input not a",
      "     terminal) at least one command failed (the shell goes on to the end of its input",
      "     and then exits 1); the state file could not be read or written, or belongs to",
      "     another backend; the Git remote cannot be used; standard output cannot be",
      "     written (a reader that went away ends the tool quietly)",
      "  2  unknown subcommand or option (a usage line goes to standard error)",
    ]
    return lines.joined(separator: "\n") + "\n"
  }
}
