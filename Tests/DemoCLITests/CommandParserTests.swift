import Testing

@testable import demo_cli

@Suite("Repl command parsing")
struct CommandParserTests {
  @Test("Every command parses")
  func commands() throws {
    #expect(
      try CommandParser.parse("signin ada lovelace")
        == .signIn(username: "ada", password: "lovelace"))
    #expect(try CommandParser.parse("  SIGNOUT ") == .signOut)
    #expect(
      try CommandParser.parse("add e4 Poetry  Evening")
        == .add(id: "e4", title: "Poetry Evening", date: "TBA", venue: "TBA"))
    #expect(
      try CommandParser.parse(#"add e4 Poetry Evening --date 2027-03-05 --venue "Old Bookshop""#)
        == .add(id: "e4", title: "Poetry Evening", date: "2027-03-05", venue: "Old Bookshop"))
    #expect(
      try CommandParser.parse("add e5 --venue=Park Picnic --date=2028-02-29")
        == .add(id: "e5", title: "Picnic", date: "2028-02-29", venue: "Park"))
    #expect(
      try CommandParser.parse("rename e2 Spring Book Fair")
        == .rename(id: "e2", title: "Spring Book Fair"))
    #expect(
      try CommandParser.parse("reschedule e1 2026-12-19")
        == .reschedule(id: "e1", date: "2026-12-19"))
    #expect(try CommandParser.parse("rm e3") == .remove(id: "e3"))
    #expect(
      try CommandParser.parse("propose 'Add the poetry evening'")
        == .propose(title: "Add the poetry evening"))
    #expect(try CommandParser.parse("merge P1") == .merge(proposalID: "P1"))
    #expect(try CommandParser.parse("select festival") == .select(branch: "festival"))
    #expect(try CommandParser.parse("discuss P1") == .discuss(proposalID: "P1", text: nil))
    #expect(
      try CommandParser.parse(#"discuss P1 Why  "in May"?"#)
        == .discuss(proposalID: "P1", text: "Why in May?"))
    #expect(try CommandParser.parse("help propose") == .help(topic: "propose"))
    #expect(try CommandParser.parse("propose --help") == .help(topic: "propose"))
    // Later, --help is an ordinary word: a password, a title.
    #expect(
      try CommandParser.parse("signin ada --help") == .signIn(username: "ada", password: "--help"))
    #expect(try CommandParser.parse("exit") == .quit)
    for name in [
      "enter", "leave", "status", "list", "diff", "retry", "fresh", "proposals", "refresh",
      "branches",
    ] {
      #expect(try CommandParser.parse(name)?.name == name)
    }
  }

  @Test("Blank lines and comments are no command")
  func nothing() throws {
    #expect(try CommandParser.parse("") == nil)
    #expect(try CommandParser.parse("   ") == nil)
    #expect(try CommandParser.parse("# a comment") == nil)
  }

  @Test("Unknown commands, wrong arity, bad options, dates and quotes are refused clearly")
  func errors() {
    #expect(throws: CommandError.unknownCommand("frobnicate")) {
      try CommandParser.parse("frobnicate now")
    }
    #expect(throws: CommandError.usage(command: "signin")) { try CommandParser.parse("signin ada") }
    #expect(throws: CommandError.usage(command: "discuss")) { try CommandParser.parse("discuss") }
    #expect(throws: CommandError.usage(command: "signin")) {
      try CommandParser.parse("signin ada love lace")
    }
    #expect(throws: CommandError.usage(command: "merge")) { try CommandParser.parse("merge") }
    #expect(throws: CommandError.usage(command: "status")) { try CommandParser.parse("status now") }
    #expect(throws: CommandError.usage(command: "propose")) { try CommandParser.parse("propose") }
    #expect(throws: CommandError.usage(command: "add")) {
      try CommandParser.parse("add e4 --date 2027-01-01")
    }
    #expect(throws: CommandError.unknownOption(command: "add", option: "--time")) {
      try CommandParser.parse("add e4 Talk --time 10:00")
    }
    #expect(throws: CommandError.missingOptionValue(command: "add", option: "--venue")) {
      try CommandParser.parse("add e4 Talk --venue")
    }
    #expect(throws: CommandError.invalidDate("2027-02-29")) {
      try CommandParser.parse("reschedule e1 2027-02-29")
    }
    #expect(throws: CommandError.invalidDate("tomorrow")) {
      try CommandParser.parse("add e4 Talk --date tomorrow")
    }
    #expect(throws: CommandError.unterminatedQuote) {
      try CommandParser.parse(#"rename e1 "Winter"#)
    }
    #expect(throws: CommandError.unknownHelpTopic("fly")) { try CommandParser.parse("help fly") }
  }

  @Test("Error messages are one readable line")
  func messages() {
    #expect(
      CommandError.unknownCommand("sigin").description
        == "unknown command 'sigin'; type 'help' for the list of commands")
    #expect(
      CommandError.unknownCommand("lovelace").description
        == "unknown command (not repeated here: it may hold a password); "
        + "type 'help' for the list of commands",
      "a word no command name is close to may be a password")
    #expect(
      CommandError.usage(command: "signin").description
        == "wrong arguments for signin; usage: signin USER PASSWORD")
    #expect(!CommandError.invalidDate("x").description.contains("\n"))
  }

  @Test("Quotes and backslashes group words")
  func tokenizer() throws {
    #expect(
      try Tokenizer.words(#"a "b c" 'd e' f\ g "h\"i""#) == ["a", "b c", "d e", "f g", #"h"i"#])
    #expect(try Tokenizer.words(#"x "" y"#) == ["x", "", "y"])
  }
}
