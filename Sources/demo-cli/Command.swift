import WorkspaceDemoFeature

/// One repl command, parsed and checked for arity and syntax (not yet against the state).
enum Command: Equatable, Sendable {
  case signIn(username: String, password: String)
  case signOut
  case enter
  case leave
  case status
  case list
  case add(id: String, title: String, date: String, venue: String)
  case rename(id: String, title: String)
  case reschedule(id: String, date: String)
  case remove(id: String)
  case diff
  case propose(title: String)
  case retry
  case fresh
  case forget
  case proposals
  case merge(proposalID: String)
  case discuss(proposalID: String, text: String?)
  case refresh
  case branches
  case select(branch: String)
  case help(topic: String?)
  case quit

  /// The command's name in the table.
  var name: String {
    switch self {
    case .signIn: "signin"
    case .signOut: "signout"
    case .enter: "enter"
    case .leave: "leave"
    case .status: "status"
    case .list: "list"
    case .add: "add"
    case .rename: "rename"
    case .reschedule: "reschedule"
    case .remove: "remove"
    case .diff: "diff"
    case .propose: "propose"
    case .retry: "retry"
    case .fresh: "fresh"
    case .forget: "forget"
    case .proposals: "proposals"
    case .merge: "merge"
    case .discuss: "discuss"
    case .refresh: "refresh"
    case .branches: "branches"
    case .select: "select"
    case .help: "help"
    case .quit: "quit"
    }
  }

  /// The command as a person typed it, with any password masked (for echoing piped input).
  /// A user name is shown only when it names a demo account: anything else may be a password
  /// typed in its place (`signin lovelace ada`).
  var maskedText: String? {
    guard case .signIn(let username, _) = self else { return nil }
    let known = DemoAccount.all.contains { $0.username == username }
    return "signin \(known ? username : "********") ********"
  }
}
