import Foundation

/// One reported figure.
struct Figure: Sendable {
  let name: String
  let summary: Summary
  let unit: String
  let target: Target?

  init(_ name: String, _ summary: Summary, unit: String, target: Target? = nil) {
    self.name = name
    self.summary = summary
    self.unit = unit
    self.target = target
  }

  var formattedValue: String {
    let value = summary.value
    switch unit {
    case "count", "1/s": return String(Int(value.rounded()))
    case "x": return String(format: "%.3f", value)
    case "ns": return String(format: "%.1f", value)
    default: return String(format: "%.2f", value)
    }
  }
}

/// The goal a figure is held to on the project's 2-core machine, release build.
enum Target: Sendable {
  case atMost(Double)
  case atLeast(Double)
  case exactly(Double)

  func isMet(by value: Double) -> Bool {
    switch self {
    case .atMost(let limit): value <= limit
    case .atLeast(let limit): value >= limit
    case .exactly(let expected): value == expected
    }
  }

  var description: String {
    switch self {
    case .atMost(let limit): "≤ \(Self.format(limit))"
    case .atLeast(let limit): "≥ \(Self.format(limit))"
    case .exactly(let expected): "= \(Self.format(expected))"
    }
  }

  private static func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}

enum OutputFormat: String {
  case table
  case tsv
}

/// Renders figures as `name<TAB>value<TAB>unit` lines, one per figure.
func renderTSV(_ figures: [Figure]) -> String {
  figures.map { "\($0.name)\t\($0.formattedValue)\t\($0.unit)\n" }.joined()
}

/// Renders figures as a Markdown table, with the machine they were measured on.
func renderTable(_ figures: [Figure], machine: Machine, elapsed: Duration) -> String {
  let header = ["figure", "value", "unit", "statistic", "reps", "target", "met"]
  let rows = figures.map { figure -> [String] in
    let met = figure.target.map { $0.isMet(by: figure.summary.value) ? "yes" : "NO" } ?? ""
    return [
      figure.name, figure.formattedValue, figure.unit, figure.summary.statistic,
      String(figure.summary.repetitions), figure.target?.description ?? "", met,
    ]
  }
  let widths = header.indices.map { column in
    ([header] + rows).map { $0[column].count }.max() ?? 0
  }
  func line(_ cells: [String]) -> String {
    let padded = cells.indices.map { column in
      let cell = cells[column]
      let padding = String(repeating: " ", count: widths[column] - cell.count)
      return column == 1 || column == 4 ? padding + cell : cell + padding
    }
    return "| " + padded.joined(separator: " | ") + " |\n"
  }
  let separator =
    "|"
    + widths.indices.map { column in
      let dashes = String(repeating: "-", count: widths[column])
      return column == 1 || column == 4 ? "-\(dashes):" : "-\(dashes)-"
    }.joined(separator: "|") + "|\n"
  let missed = figures.filter { figure in
    figure.target.map { !$0.isMet(by: figure.summary.value) } ?? false
  }
  return """
    composable-benchmarks (release): \(machine.cores) cores, \(machine.cpuModel)
    Each figure: one warm-up run, then `reps` measured runs; the median (or, for must-be-zero \
    counts, the worst run). Ratios divide two medians.

    """
      + line(header) + separator + rows.map(line).joined()
      + "\n\(figures.count) figures in \(String(format: "%.1f", elapsed.seconds)) s; "
      + "targets missed: \(missed.isEmpty ? "none" : missed.map(\.name).joined(separator: ", "))\n"
}

/// The machine the figures were measured on.
struct Machine {
  let cores: Int
  let cpuModel: String

  static var current: Machine {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuinfo.split(separator: "\n")
      .first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) }
    return Machine(
      cores: ProcessInfo.processInfo.activeProcessorCount,
      cpuModel: model ?? "unknown CPU"
    )
  }
}
