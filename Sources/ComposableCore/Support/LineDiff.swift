/// A line diff of two renderings: unchanged lines indented by two spaces, lines only in
/// `expected` prefixed "−", lines only in `actual` prefixed "+".
package enum LineDiff {
  package static func render(expected: [String], actual: [String]) -> String {
    let difference = actual.difference(from: expected)
    var removed = Set<Int>()
    var inserted = Set<Int>()
    for change in difference {
      switch change {
      case .remove(let offset, _, _): removed.insert(offset)
      case .insert(let offset, _, _): inserted.insert(offset)
      }
    }
    var output: [String] = []
    var e = 0
    var a = 0
    while e < expected.count || a < actual.count {
      if e < expected.count, removed.contains(e) {
        output.append("−" + expected[e])
        e += 1
      } else if a < actual.count, inserted.contains(a) {
        output.append("+" + actual[a])
        a += 1
      } else {
        if a < actual.count { output.append(" " + actual[a]) }
        e += 1
        a += 1
      }
    }
    return output.joined(separator: "\n")
  }
}
