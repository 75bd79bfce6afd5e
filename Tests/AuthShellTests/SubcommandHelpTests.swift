import CommandLineOptions
import Testing
import UserSeeds

@testable import AuthShell

/// Every subcommand answers --help with its own options, on standard output, exit status 0;
/// a mistake is one line on standard error.
struct SubcommandHelpTests {
  @Test(arguments: [
    (["test", "--help"], SuiteOptions.table.flatMap(\.names)),
    (["play", "--help"], Playback.table.flatMap(\.names)),
    (["play", "-h"], Playback.table.flatMap(\.names)),
    (["graph", "--help"], FlowGraph.table.flatMap(\.names)),
    (["users", "--help"], UsersCommand.table.flatMap(\.names)),
    (["users", "export", "--help"], UsersCommand.table.flatMap(\.names)),
    (["serve", "--help"], ["--port", "--store", "--jwt-secret", "--firebase-project", "--help"]),
    (["--help"], ShellOptions.table.flatMap(\.names)),
  ])
  func everySubcommandHelpsWithItsOwnOptions(arguments: [String], names: [String]) throws {
    let run = try runAuthflow(arguments)
    #expect(run.status == 0 && run.error.isEmpty, "\(run.error)")
    let name = arguments.count > 1 ? arguments[0] : ""
    #expect(run.output.hasPrefix("authflow\(name.isEmpty ? "" : " " + name)"), "\(arguments)")
    for option in names { #expect(run.output.contains(option), "\(arguments): \(option)") }
  }

  @Test func playHelpNeedsNoScriptAndItsPaceIsChecked() throws {
    let help = try runAuthflow(["play", "--help"])
    #expect(help.output.contains("--pace MS") && help.output.contains("Shell options"))
    let bad = try runAuthflow(["play", "--pace", "fast", "a.authflow"])
    #expect(bad.status == 2)
    #expect(
      bad.error == "authflow: --pace takes milliseconds per character, 0 to 2000 (default 40)\n")
    let parsed = Playback.parse(["--pace=0", "a.authflow", "--echo"])
    guard case .success(let (playback, rest)) = parsed else {
      Issue.record("--pace=0 is a pace")
      return
    }
    #expect(playback.pace == 0 && !playback.step && rest == ["a.authflow", "--echo"])
  }

  @Test func aGraphMistakeIsOneLineOnStandardError() throws {
    let run = try runAuthflow(["graph", "flow.png"])
    #expect(run.status == 2 && run.output.isEmpty)
    #expect(
      run.error == "authflow graph: takes one file ending in .dot or .svg, or none for DOT on "
        + "standard output; see authflow graph --help\n")
  }

  @Test func theGeneratorsAreNotForScriptsInASuite() throws {
    #expect(throws: SuiteError.notForScripts("--generate-manual")) {
      try SuiteOptions.parse(["--generate-manual"])
    }
  }
}
