import Foundation

/// Benchmarks of ComposableCore against its floor. See BENCHMARKS.md at the repository root.
@main
struct ComposableBenchmarks {
  static let usage = """
    usage: composable-benchmarks [--format table|tsv] [--only NAME[,NAME...]] [--quick] [--help]

      --format table   a Markdown table with targets (default)
      --format tsv     one `name<TAB>value<TAB>unit` line per figure, nothing else on stdout
      --only NAMES     run only these benchmarks: \(Suite.names.joined(separator: ", "))
                       (send: floor, store and 10-deep scoped sends)
      --quick          a tenth of the work and at most 3 repetitions (for profilers;
                       figures are noisier and not the documented ones)
      --help           this text
      --cancel-resident store|floor
                       (used by the cancel group) measure one repetition's resident
                       growth in this fresh process and print it in MB

    Build in release first: swift build -c release --scratch-path /tmp/build-bench
    Progress goes to standard error. Exit status: 0 ran (targets met or not), 1 a benchmark's
    own check failed, 2 bad arguments.
    """

  struct Options {
    var format = OutputFormat.table
    var only: Set<String>?
    var quick = false
  }

  enum Parsed {
    case run(Options)
    case cancelResident(CancelSubject)
    case help
    case invalid(String)
  }

  static func parse(_ arguments: [String]) -> Parsed {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      var (flag, value) = (argument, String?.none)
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        flag = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
      }
      switch flag {
      case "--help", "-h":
        return .help
      case "--quick":
        options.quick = true
      case "--cancel-resident":
        guard let given = value ?? remaining.popFirst(),
          let subject = CancelSubject(rawValue: given)
        else { return .invalid("--cancel-resident needs store or floor") }
        return .cancelResident(subject)
      case "--format", "--only":
        guard let given = value ?? remaining.popFirst() else {
          return .invalid("\(flag) needs a value")
        }
        if flag == "--format" {
          guard let format = OutputFormat(rawValue: given) else {
            return .invalid("unknown format '\(given)'")
          }
          options.format = format
        } else {
          let names = Set(given.split(separator: ",").map(String.init))
          if let unknown = names.first(where: { !Suite.names.contains($0) }) {
            return .invalid("unknown benchmark '\(unknown)'")
          }
          options.only = names
        }
      default:
        return .invalid("unknown argument '\(argument)'")
      }
    }
    return .run(options)
  }

  static func main() async {
    let options: Options
    switch parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
      print(usage)
      return
    case .invalid(let message):
      printError("composable-benchmarks: \(message)\n\(usage)")
      exit(2)
    case .run(let parsed):
      options = parsed
    case .cancelResident(let subject):
      do {
        print(try await cancelResidentGrowthInFreshProcess(of: subject))
      } catch {
        printError("composable-benchmarks: FAILED: \(error)")
        exit(1)
      }
      return
    }
    #if DEBUG
      printError(
        "composable-benchmarks: warning: a debug build; figures mean nothing. Use -c release.")
    #endif
    do {
      let clock = ContinuousClock()
      let start = clock.now
      let figures = try await Suite.run(only: options.only, quick: options.quick) { name in
        printError("running \(name)…")
      }
      let elapsed = start.duration(to: clock.now)
      switch options.format {
      case .tsv: print(renderTSV(figures), terminator: "")
      case .table: print(renderTable(figures, machine: .current, elapsed: elapsed), terminator: "")
      }
    } catch {
      printError("composable-benchmarks: FAILED: \(error)")
      exit(1)
    }
  }
}

func printError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}
