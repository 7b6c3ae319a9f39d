/// `help` and `help COMMAND` in the repl.
enum CommandHelp {
  static func outcome(topic: String?) -> CommandOutcome {
    var outcome = CommandOutcome()
    guard let topic else {
      outcome.info("commands:")
      let width = CommandTable.all.map(\.usage.count).max() ?? 0
      for spec in CommandTable.all {
        outcome.detail(
          spec.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + spec.summary)
      }
      outcome.info("'help COMMAND' or 'COMMAND --help' explains one command.")
      return outcome
    }
    guard let spec = CommandTable.spec(named: topic) else {
      return .failure(CommandError.unknownHelpTopic(topic).description)
    }
    outcome.info("usage: \(spec.usage)")
    outcome.detail(spec.summary)
    for line in spec.details { outcome.detail(line) }
    if !spec.aliases.isEmpty { outcome.detail("also: " + spec.aliases.joined(separator: ", ")) }
    return outcome
  }
}
