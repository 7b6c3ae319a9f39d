extension Duration {
  /// The duration in whole milliseconds (truncated), as socket timeouts, `poll` and the
  /// `retry:` field of an event stream take it.
  var wholeMilliseconds: Int {
    Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
  }
}
