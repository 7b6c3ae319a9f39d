import Foundation

/// The entry point. Everything else is in ``CLI``, which tests run with injected streams.
@main
struct DemoCLI {
  static func main() async {
    let status = await CLI.run(
      arguments: Array(CommandLine.arguments.dropFirst()),
      terminal: .current,
      sink: StandardStreams(),
      readLine: { Swift.readLine(strippingNewline: true) }
    )
    exit(status)
  }
}
