import CommandLineOptions
import Foundation
import Testing
import UserSeeds

@testable import AuthShell

/// authflow(1) and the completion scripts, written by the program from its tables: every
/// option of every command and every shell command is on the page, groff finds nothing wrong
/// with it, and each shell's script completes the real command line.
struct ManualTests {
  /// Every option name of every command, as their parsers read them (serve's from its --help:
  /// its module is not this one's).
  static func everyOption() throws -> [String] {
    let serveHelp = try runAuthflow(["serve", "--help"]).output
    let serve = serveHelp.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
      line.split(separator: " ").prefix { $0.hasPrefix("-") }.map {
        String($0.trimmingCharacters(in: CharacterSet(charactersIn: ",")))
      }
    }
    #expect(serve.count > 40, "serve's options were read from its help")
    return ShellOptions.table.flatMap(\.names) + SuiteOptions.table.flatMap(\.names)
      + Playback.table.flatMap(\.names) + FlowGraph.table.flatMap(\.names)
      + UsersCommand.table.flatMap(\.names) + serve
  }

  @Test func theManualListsEveryOptionSubcommandAndShellCommand() throws {
    let run = try runAuthflow(["--generate-manual"])
    #expect(run.status == 0)
    let page = run.output
    for name in try Self.everyOption() {
      #expect(
        page.contains("\\fB\(name.replacingOccurrences(of: "-", with: "\\-"))\\fR"), "\(name)")
    }
    for subcommand in Subcommand.allCases {
      #expect(page.contains(".SS \"authflow \(subcommand.rawValue)\""), "\(subcommand)")
    }
    for spec in CommandTable.all {
      let usage = spec.usage.replacingOccurrences(of: "-", with: "\\-")
      #expect(page.contains(".TP\n\\fB\(usage)\\fR\n"), "\(spec.name)")
    }
    for section in [
      "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "\"SHELL COMMANDS\"",
      "\"ENVIRONMENT\"", "\"FILES\"", "\"EXIT STATUS\"", "\"EXAMPLES\"", "\"SEE ALSO\"",
    ] {
      #expect(page.contains("\n.SH \(section)\n"), "\(section)")
    }
    #expect(page.contains("\\fBGOTRUE_JWT_SECRET\\fR\nsets authflow serve \\-\\-jwt\\-secret\n"))
  }

  @Test func theProgramIsDescribedFromItsTables() {
    let serve = CommandDescription(
      name: "serve", abstract: "a server", usage: ["serve"], options: [])
    let program = AuthflowProgram.description(serve: serve)
    #expect(program.subcommands.map(\.name) == Subcommand.allCases.map(\.rawValue))
    #expect(program.options.map(\.names) == ShellOptions.table.map(\.names))
    #expect(program.sections == ShellOptions.sections)
    #expect(program.subcommands.filter(\.takesProgramOptions).map(\.name) == ["test", "play"])
    let page = AuthflowManual.page(serve: serve, version: "9.9").roff
    #expect(page.hasPrefix(".TH AUTHFLOW 1 \"\" \"authflow 9.9\" \"User Commands\"\n"))
    #expect(page.contains(".SS \"authflow serve\"\nA server.\n"))
  }

  @Test func groffFindsNothingWrongWithTheManual() throws {
    let file = NSTemporaryDirectory() + "authflow-\(UUID().uuidString).1"
    try runAuthflow(["--generate-manual"]).output.write(
      toFile: file, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let lint = try runProgram("/usr/bin/groff", ["-ww", "-z", "-man", file])
    #expect(lint.status == 0 && lint.output.isEmpty, "\(lint.output)")
    // `man` in the C locale renders for an ASCII terminal: no character may lack a stand-in.
    let ascii = try runProgram("/usr/bin/groff", ["-ww", "-z", "-man", "-Tascii", file])
    #expect(ascii.status == 0 && ascii.output.isEmpty, "\(ascii.output)")
  }

  @Test func bashCompletesTheRealCommandLine() throws {
    let script = try runAuthflow(["--generate-completion-script", "bash"]).output
    let file = NSTemporaryDirectory() + "authflow-\(UUID().uuidString).bash"
    try script.write(toFile: file, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let cases: [([String], [String])] = [
      (["authflow", "--ba"], ["--backend", "--bail"]),
      (["authflow", "--backend", ""], ["embedded", "supabase", "firebase"]),
      (["authflow", "serve", "--jwt-e"], ["--jwt-exp"]),
      (["authflow", "users", "export", "--format", ""], ["authflow", "firebase"]),
      (["authflow", "test", "--ju"], ["--junit"]),
      (["authflow", "play", "--pac"], ["--pace"]),
      (["authflow", "--generate-completion-script", ""], ["bash", "zsh", "fish"]),
    ]
    for (words, offered) in cases {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let run = try runProgram(
        "/bin/bash",
        [
          "--norc", "-c",
          "source \(file); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _authflow; "
            + "printf '%s\\n' \"${COMPREPLY[@]}\"",
        ])
      #expect(run.output.split(separator: "\n").map(String.init) == offered, "\(words)")
    }
  }

  @Test func badShellIsOneLineSayingWhichAreRight() throws {
    let run = try runAuthflow(["--generate-completion-script", "tcsh"])
    #expect(run.status == 2)
    #expect(
      run.error == "authflow: --generate-completion-script takes bash, zsh or fish, not 'tcsh'\n")
  }
}

/// `program` with `arguments`, run to its end: its status and its output and errors together.
func runProgram(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String)
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
