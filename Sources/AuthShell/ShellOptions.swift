import CommandLineOptions
import EngineSettings
import GoTrueEngine

/// The command line of `authflow`.
struct ShellOptions: Equatable, HoldsEngineSettings {
  /// `embedded` (default), `supabase` or `firebase`.
  var backend = BackendKind.embedded
  /// The embedded engine's settings, its store, users file and seed (``EngineSetting``).
  var settings = EngineSettings()
  /// `--supabase-url URL` (else `SUPABASE_URL`).
  var supabaseURL: String?
  /// `--supabase-key KEY` (else `SUPABASE_ANON_KEY`).
  var supabaseKey: String?
  /// `--mailbox URL`: a mail catcher with Mailpit's API, for the Supabase backend's emails.
  var mailbox: String?
  /// `--app-scheme SCHEME`: the app asks for its confirmation links back into
  /// `SCHEME://auth/verify` (seed 004's `emailRedirectTo`).
  var appScheme: String?
  /// `--firebase-key KEY` (else `FIREBASE_API_KEY`).
  var firebaseKey: String?
  /// `--firebase-project ID` (else `FIREBASE_PROJECT_ID`).
  var firebaseProject: String?
  /// `--firebase-emulator HOST:PORT` (else `FIREBASE_AUTH_EMULATOR_HOST`), or `local`.
  var firebaseEmulator: String?
  /// `--timeout SECONDS` for Supabase requests.
  var timeout: Double?
  /// `--echo`.
  var echo = false
  /// `--bail`.
  var bail = false
  /// `--keep-session`: a script starts with the saved session and saves its own.
  var keepSession = false
  /// `--json`.
  var json = false
  /// `--record FILE`: record the session from the start.
  var record: String?
  /// `--present [PORT]`: the screen in a browser, on that port of 127.0.0.1 (0: a free one).
  var present: UInt16?
  /// `--no-color`.
  var noColor = false
  /// `--plain`.
  var plain = false
  /// `-c` commands, one line per `-c`.
  var commands: [String] = []
  /// A script file to run.
  var file: String?
  /// `--help`.
  var help = false
  /// `--version`.
  var version = false
  /// `--generate-manual`: print the manual page.
  var generateManual = false
  /// `--generate-completion-script SHELL`: print that shell's completion script.
  var completionScript: CompletionShell?

  /// Parses the arguments after the program name; `checkingBackends: false` lets options of
  /// another backend through (to find the script, whose `#!` line may name the backend).
  static func parse(_ arguments: [String], checkingBackends: Bool = true) throws(ShellError)
    -> ShellOptions
  {
    let parsed: ParsedCommandLine<ShellOptions>
    do {
      parsed = try OptionParser.parse(arguments, table: table, into: ShellOptions())
    } catch {
      throw .option(error)
    }
    var options = parsed.options
    guard parsed.operands.count <= 1 else { throw .oneScriptOnly }
    options.file = parsed.operands.first
    if options.file != nil, !options.commands.isEmpty { throw .commandsAndScript }
    for spec in parsed.given where checkingBackends {
      // A group names the backends an option is for: `supabase`, or `supabase|firebase`.
      if let group = spec.group,
        !group.split(separator: "|").contains(Substring(options.backend.rawValue))
      {
        throw .optionOfOtherBackend(option: spec.names[0], backend: group)
      }
    }
    return options
  }

  /// `authflow --help`, written from the option table.
  static var usage: String {
    var lines = ["authflow: \(abstract).", ""]
    lines += zip(["usage:"] + Array(repeating: "      ", count: usages.count), usages).map {
      let padding = String(repeating: " ", count: max(2, 23 - $1.synopsis.count))
      return "\($0) authflow \($1.synopsis)" + ($1.summary.isEmpty ? "" : padding + $1.summary)
    }
    lines += Subcommand.allCases.map { "       authflow \($0.synopsis)  \($0.summary)" }
    lines += OptionParser.usage(table, sections: sections)
    lines +=
      [""]
      + HelpText.wrap("Demo accounts of a new store: \(DemoAccountsText.accounts).", indent: "")
    lines += ["", "Type help in the shell for its commands. " + exitStatus[0]]
    lines += exitStatus.dropFirst()
    return lines.joined(separator: "\n")
  }

  /// What `authflow` is, in a few words.
  static let abstract = "explore, demo and script an app's sign-in flow"

  /// The ways to run the shell, each with what it does.
  static let usages: [(synopsis: String, summary: String)] = [
    ("[options]", "interactive shell (or a script on standard input)"),
    ("[options] FILE", "run a script file (#!/usr/bin/env authflow works)"),
    ("[options] -c 'cmd; cmd'", ""),
  ]

  /// The sections of the options, in the order `--help` lists them.
  static let sections = ["backend", "scripts", "output", "other"]

  /// What the exit status says.
  static let exitStatus = [
    "Exit status: 0 when every command ran and every",
    "expect held, 1 otherwise, 2 for a bad command line.",
  ]
}

extension ShellOptions {
  /// `--firebase-emulator local`: the Firebase Auth emulator of `authflow serve`, started in
  /// this process on a store of its own in memory.
  static let localEmulator = "local"
  /// The project of the local emulator when none is named (`demo-` ids are the emulator's).
  static let localEmulatorProject = "demo-authflow"

  /// Whether `word` is a number (`--present 8080`): the word after `--present` is its port
  /// only then, so `--present demo.authflow` is the script.
  static let isNumber: @Sendable (String) -> Bool = { word in
    !word.isEmpty && word.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  /// Whether the run keeps its accounts to itself, in memory: the embedded backend on
  /// `:memory:` (`store` when no option names one), or the local Firebase emulator.
  func isSandboxed(storeWhenNoneGiven store: String?) -> Bool {
    switch backend {
    case .embedded: (settings.store ?? store) == ":memory:"
    case .firebase: firebaseEmulator == Self.localEmulator
    case .supabase: false
    }
  }

  /// The options a recording's `#!` line carries: the backend and what it needs to be reached
  /// again (keys and secrets come from the environment), and on the embedded backend a fresh
  /// store, so the replay makes everything it relies on.
  var recordedOptions: [String] {
    var words = ["--backend", backend.rawValue]
    switch backend {
    case .supabase:
      if let supabaseURL { words += ["--supabase-url", supabaseURL] }
      if let mailbox { words += ["--mailbox", mailbox] }
    case .firebase:
      if let firebaseProject { words += ["--firebase-project", firebaseProject] }
      if let firebaseEmulator { words += ["--firebase-emulator", firebaseEmulator] }
    case .embedded:
      words += ["--store", ":memory:"]
      // The engine's settings as given, in the table's order; not the users file (the replay
      // makes its own accounts) or the hash cost (a replay's own choice).
      let unrecorded = [EngineSetting.store, .users, .hashCost].map(\.name)
      for row in EngineSetting.all where !unrecorded.contains(row.name) {
        guard let value = settings.given[row.name] else { continue }
        words += row.value == nil ? [row.name] : [row.name, value]
      }
    }
    if let appScheme, backend != .firebase { words += ["--app-scheme", appScheme] }
    if let timeout, backend != .embedded { words += ["--timeout", "\(Int(timeout))"] }
    if plain { words.append("--plain") }
    return words
  }
}
