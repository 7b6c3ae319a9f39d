extension Duration {
  /// The duration in whole milliseconds (truncated), as socket timeouts, `poll` and the
  /// `retry:` field of an event stream take it: from 0 to `Int32.max` (about 24 days), so a
  /// "forever" such as `.seconds(Int64.max)` never overflows, and a negative one is 0.
  var wholeMilliseconds: Int {
    let (seconds, attoseconds) = components
    guard seconds >= 0 else { return 0 }
    let (whole, overflow) = Int(clamping: seconds).multipliedReportingOverflow(by: 1000)
    let total = overflow ? Int.max : whole &+ Int(attoseconds / 1_000_000_000_000_000)
    return min(max(total, 0), Int(Int32.max))
  }
}
