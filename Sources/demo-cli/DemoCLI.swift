import Foundation

/// The entry point. Everything else is in ``CLI``, which tests run with injected streams.
@main
struct DemoCLI {
  static func main() async {
    // A reader that went away is an EPIPE from write(2), handled by StandardStreams.
    signal(SIGPIPE, SIG_IGN)
    // A closed standard stream gets /dev/null, so no file opened later takes its number (and
    // receives the output); a closed standard output is still reported as such.
    let outputWasClosed = fcntl(STDOUT_FILENO, F_GETFD) < 0
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
    where fcntl(descriptor, F_GETFD) < 0 {
      _ = open("/dev/null", O_RDWR)
    }
    TemporaryFolders.removeOnInterruption()
    let status = await CLI.run(
      arguments: Array(CommandLine.arguments.dropFirst()),
      terminal: .current,
      sink: StandardStreams(outputWasClosed: outputWasClosed),
      readLine: { Swift.readLine(strippingNewline: true) }
    )
    TemporaryFolders.exit(status)
  }
}
