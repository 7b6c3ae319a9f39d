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

  /// Whether `word` is repeated in a message about a line that failed: a short word of ASCII
  /// letters is taken for a (mistyped) command's name. Anything else is not repeated, and a
  /// failed line's later words never are.
  static func couldBeCommandName(_ word: String) -> Bool {
    (1...12).contains(word.count) && word.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "?") }
  }
}
