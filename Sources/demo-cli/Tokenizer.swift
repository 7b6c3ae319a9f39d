/// Splits a command line into words: whitespace separates them, "double" or 'single' quotes
/// keep words together, and a backslash outside single quotes takes the next character as is.
enum Tokenizer {
  static func words(_ line: String) throws(CommandError) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaping = false
    for character in line {
      if escaping {
        current.append(character)
        escaping = false
        continue
      }
      switch (character, quote) {
      case ("\\", let open) where open != "'":
        escaping = true
        inWord = true
      case ("\"", nil), ("'", nil):
        quote = character
        inWord = true
      case (let close, let open?) where close == open:
        quote = nil
      case (let space, nil) where space.isWhitespace:
        if inWord { words.append(current) }
        current = ""
        inWord = false
      default:
        current.append(character)
        inWord = true
      }
    }
    if escaping { current.append("\\") }
    guard quote == nil else { throw .unterminatedQuote }
    if inWord { words.append(current) }
    return words
  }
}
