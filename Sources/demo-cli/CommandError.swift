/// A command line that cannot be run: the repl prints the description as one line.
enum CommandError: Error, Equatable, Sendable, CustomStringConvertible {
  case unterminatedQuote
  case unknownCommand(String)
  /// Wrong number or shape of arguments for the named command.
  case usage(command: String)
  case unknownOption(command: String, option: String)
  case missingOptionValue(command: String, option: String)
  case invalidDate(String)
  case unknownHelpTopic(String)

  var description: String {
    switch self {
    case .unterminatedQuote:
      "unterminated quote; close it with the same quote character"
    case .unknownCommand(let name) where Self.couldBeCommandName(name):
      "unknown command '\(name)'; type 'help' for the list of commands"
    case .unknownCommand:
      "unknown command (not repeated here: it may hold a password); "
        + "type 'help' for the list of commands"
    case .usage(let command):
      "wrong arguments for \(command); usage: \(CommandTable.spec(named: command)?.usage ?? command)"
    case .unknownOption(let command, let option):
      "unknown option '\(option)' for \(command); usage: \(CommandTable.spec(named: command)?.usage ?? command)"
    case .missingOptionValue(let command, let option):
      "\(option) needs a value; usage: \(CommandTable.spec(named: command)?.usage ?? command)"
    case .invalidDate(let text):
      "'\(text)' is not a date; write it as YYYY-MM-DD (for example 2027-03-05)"
    case .unknownHelpTopic(let name):
      "no help for '\(name)': there is no such command; type 'help' for the list"
    }
  }

  /// Whether `word` is repeated in a message about a line that failed: only a mistyped command
  /// name — a short word of ASCII letters at most two edits away from a command's name or
  /// alias (`sigin`, `proppse`). Any other word may be a password typed on the wrong line
  /// (`lovelace` after `signin ada`) and is never repeated; nor are a failed line's later words.
  static func couldBeCommandName(_ word: String) -> Bool {
    guard (1...12).contains(word.count), word.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      return word == "?"
    }
    let typed = Array(word.lowercased().utf8)
    return CommandTable.all.contains { spec in
      ([spec.name] + spec.aliases).contains { editDistance(typed, Array($0.utf8)) <= 2 }
    }
  }

  /// The Levenshtein distance of two short byte strings. O(`a.count` × `b.count`).
  private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1] + Array(repeating: 0, count: b.count)
      for (j, y) in b.enumerated() {
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
      }
      previous = current
    }
    return previous[b.count]
  }
}
