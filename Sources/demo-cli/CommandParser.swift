/// Turns one line into a ``Command``, or says precisely what is wrong with it.
///
/// A blank line or a `#` comment is no command (`nil`). `COMMAND --help` (or `-h`) right after a
/// known command asks for its help; later, `--help` is an ordinary word (a title, a password).
enum CommandParser {
  static func parse(_ line: String) throws(CommandError) -> Command? {
    let words = try Tokenizer.words(line)
    guard let first = words.first, !first.hasPrefix("#") else { return nil }
    guard let spec = CommandTable.spec(named: first.lowercased()) else {
      throw .unknownCommand(first)
    }
    let arguments = Array(words.dropFirst())
    if arguments.first == "--help" || arguments.first == "-h" {
      return .help(topic: spec.name)
    }
    return try command(spec.name, arguments)
  }

  private static func command(_ name: String, _ arguments: [String]) throws(CommandError) -> Command
  {
    func none(_ command: Command) throws(CommandError) -> Command {
      guard arguments.isEmpty else { throw .usage(command: name) }
      return command
    }
    func one() throws(CommandError) -> String {
      guard arguments.count == 1, let value = arguments.first else { throw .usage(command: name) }
      try rejectOption(value, command: name)
      return value
    }
    switch name {
    case "signin":
      guard arguments.count == 2 else { throw .usage(command: name) }
      return .signIn(username: arguments[0], password: arguments[1])
    case "signout": return try none(.signOut)
    case "enter": return try none(.enter)
    case "leave": return try none(.leave)
    case "status": return try none(.status)
    case "list": return try none(.list)
    case "add": return try add(arguments)
    case "rename":
      guard let id = arguments.first else { throw .usage(command: name) }
      try rejectOption(id, command: name)
      return .rename(id: id, title: try title(arguments.dropFirst(), command: name))
    case "reschedule":
      guard arguments.count == 2 else { throw .usage(command: name) }
      try rejectOption(arguments[0], command: name)
      return .reschedule(id: arguments[0], date: try date(arguments[1]))
    case "remove": return .remove(id: try one())
    case "diff": return try none(.diff)
    case "propose": return .propose(title: try title(arguments[...], command: name))
    case "retry": return try none(.retry)
    case "fresh": return try none(.fresh)
    case "forget": return try none(.forget)
    case "proposals": return try none(.proposals)
    case "merge": return .merge(proposalID: try one())
    case "discuss":
      guard let id = arguments.first else { throw .usage(command: name) }
      try rejectOption(id, command: name)
      let text = arguments.dropFirst().joined(separator: " ").trimmingWhitespace
      return .discuss(proposalID: id, text: text.isEmpty ? nil : text)
    case "refresh": return try none(.refresh)
    case "branches": return try none(.branches)
    case "select": return .select(branch: try one())
    case "help":
      guard arguments.count <= 1 else { throw .usage(command: name) }
      guard let topic = arguments.first else { return .help(topic: nil) }
      guard let spec = CommandTable.spec(named: topic.lowercased()) else {
        throw .unknownHelpTopic(topic)
      }
      return .help(topic: spec.name)
    case "quit": return try none(.quit)
    default: throw .unknownCommand(name)
    }
  }

  /// `add ID TITLE… [--date D] [--venue V]`: options may come anywhere after the id; `--` ends
  /// them.
  private static func add(_ arguments: [String]) throws(CommandError) -> Command {
    guard let id = arguments.first else { throw .usage(command: "add") }
    try rejectOption(id, command: "add")
    var date = "TBA"
    var venue = "TBA"
    var words: [String] = []
    var rest = arguments.dropFirst()
    var optionsEnded = false
    while let word = rest.popFirst() {
      if optionsEnded || !word.hasPrefix("--") {
        words.append(word)
        continue
      }
      let (option, inline) = split(word)
      switch option {
      case "--":
        optionsEnded = true
      case "--date", "--venue":
        guard let value = inline ?? rest.popFirst(), !value.isEmpty else {
          throw .missingOptionValue(command: "add", option: option)
        }
        if option == "--date" { date = try self.date(value) } else { venue = value }
      default:
        throw .unknownOption(command: "add", option: option)
      }
    }
    return .add(id: id, title: try title(words[...], command: "add"), date: date, venue: venue)
  }

  private static func split(_ word: String) -> (String, String?) {
    guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<equals]), String(word[word.index(after: equals)...]))
  }

  private static func title(_ words: ArraySlice<String>, command: String) throws(CommandError)
    -> String
  {
    let title = words.joined(separator: " ").trimmingWhitespace
    guard !title.isEmpty else { throw .usage(command: command) }
    return title
  }

  private static func rejectOption(_ word: String, command: String) throws(CommandError) {
    if word.hasPrefix("--") { throw .unknownOption(command: command, option: word) }
  }

  /// A calendar date written YYYY-MM-DD.
  static func date(_ text: String) throws(CommandError) -> String {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
    else { throw .invalidDate(text) }
    return text
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

extension String {
  var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
