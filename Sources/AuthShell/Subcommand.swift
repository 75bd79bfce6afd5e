import CommandLineOptions
import UserSeeds

/// Starts `authflow serve` with `arguments` inside this process, on a thread of its own (the
/// Firebase backend's `--firebase-emulator local`); its `host:port`, or `nil` when it could not
/// start, having said why on standard error.
public typealias LocalServerStarter = @Sendable (_ arguments: [String]) -> String?

/// The subcommands of `authflow`, in the order `--help` lists them. One table gives dispatch and
/// `--help`: a subcommand the table lacks is neither run nor listed.
public enum Subcommand: String, CaseIterable, Sendable {
  /// `authflow test [PATH...]`: scripts run as a suite.
  case test
  /// `authflow play FILE`: a presenter's playback.
  case play
  /// `authflow graph [FILE]`: the flow's navigation graph.
  case graph
  /// `authflow serve`: the engine as a local Auth server.
  case serve
  /// `authflow users export`: a store's accounts as a users file.
  case users

  /// What follows the name in `--help`'s usage.
  var synopsis: String {
    switch self {
    case .test: "test [PATH...] [options]"
    case .play: "play FILE [--pace MS] [--step]"
    case .graph: "graph [FILE.dot|FILE.svg]"
    case .serve: "serve [options]"
    case .users: "users export [--store PATH] [--format authflow|firebase]"
    }
  }

  /// What it does, in a few words.
  var summary: String {
    switch self {
    case .test: "run suites of scripts (authflow test --help)"
    case .play: "a presenter's playback of a script"
    case .graph: "the flow's navigation graph, as Graphviz DOT or SVG"
    case .serve: "a local Auth server (authflow serve --help)"
    case .users: "a store's accounts as a users file for --users"
    }
  }
}

extension AuthflowMain {
  /// Runs `authflow` with the command line `arguments` (after the program's name): a
  /// subcommand of ``Subcommand``, or the shell. `serve` runs the server, which lives outside
  /// this module, and `serveCommand` describes it (for the manual and completion scripts). The
  /// exit status.
  @MainActor
  public static func main(
    arguments: [String], environment: [String: String],
    serveCommand: @escaping @Sendable () -> CommandDescription,
    serve: ([String], [String: String], String) -> Int32,
    startLocalServer: LocalServerStarter? = nil
  ) async -> Int32 {
    guard let name = arguments.first, let subcommand = Subcommand(rawValue: name) else {
      return await run(
        arguments: arguments, environment: environment, serveCommand: serveCommand,
        startLocalServer: startLocalServer)
    }
    let rest = Array(arguments.dropFirst())
    switch subcommand {
    case .test: return SuiteMain.run(arguments: rest, environment: environment)
    case .play:
      return await play(
        arguments: rest, environment: environment, startLocalServer: startLocalServer)
    case .graph: return FlowGraph.run(arguments: rest)
    case .serve: return serve(rest, environment, version)
    case .users: return UsersCommand.run(arguments: rest, environment: environment)
    }
  }
}
