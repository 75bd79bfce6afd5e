import AuthCrypto
import CommandLineOptions
import GoTrueEngine

/// The command line of `authflow`.
struct ShellOptions: Equatable, Sendable {
  /// `embedded` (default), `supabase` or `firebase`.
  var backend = "embedded"
  /// `--store PATH|:memory:`; `nil` for the default store.
  var store: String?
  /// `--autoconfirm`.
  var autoconfirm = false
  /// `--hash-cost N`.
  var hashCost: Int?
  /// `--seed N`.
  var seed: UInt64?
  /// `--supabase-url URL` (else `SUPABASE_URL`).
  var supabaseURL: String?
  /// `--supabase-key KEY` (else `SUPABASE_ANON_KEY`).
  var supabaseKey: String?
  /// `--mailbox URL`: a mail catcher with Mailpit's API, for the Supabase backend's emails.
  var mailbox: String?
  /// `--firebase-key KEY` (else `FIREBASE_API_KEY`).
  var firebaseKey: String?
  /// `--firebase-project ID` (else `FIREBASE_PROJECT_ID`).
  var firebaseProject: String?
  /// `--firebase-emulator HOST:PORT` (else `FIREBASE_AUTH_EMULATOR_HOST`).
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
      if let group = spec.group, !group.split(separator: "|").contains(Substring(options.backend)) {
        throw .optionOfOtherBackend(option: spec.names[0], backend: group)
      }
    }
    return options
  }

  /// `authflow --help`, written from the option table.
  static var usage: String {
    var lines = [
      "authflow: explore, demo and script an app's sign-in flow.",
      "",
      "usage: authflow [options]              interactive shell (or a script on standard input)",
      "       authflow [options] FILE         run a script file (#!/usr/bin/env authflow works)",
      "       authflow [options] -c 'cmd; cmd'",
      "       authflow test [PATH...] [options]  run suites of scripts (authflow test --help)",
      "       authflow play FILE [--pace MS] [--step]  a presenter's playback of a script",
      "       authflow serve [options]        a local Auth server (authflow serve --help)",
    ]
    lines += OptionParser.usage(table, sections: ["backend", "scripts", "output", "other"])
    lines += [
      "",
      "Type help in the shell for its commands. Exit status: 0 when every command ran and every",
      "expect held, 1 otherwise, 2 for a bad command line.",
    ]
    return lines.joined(separator: "\n")
  }
}

extension ShellOptions {
  /// The options a recording's `#!` line carries: the backend and what it needs to be reached
  /// again (keys and secrets come from the environment), and on the embedded backend a fresh
  /// store, so the replay makes everything it relies on.
  var recordedOptions: [String] {
    var words = ["--backend", backend]
    switch backend {
    case "supabase":
      if let supabaseURL { words += ["--supabase-url", supabaseURL] }
      if let mailbox { words += ["--mailbox", mailbox] }
    case "firebase":
      if let firebaseProject { words += ["--firebase-project", firebaseProject] }
      if let firebaseEmulator { words += ["--firebase-emulator", firebaseEmulator] }
    default:
      words += ["--store", ":memory:"]
      if autoconfirm { words.append("--autoconfirm") }
      if let seed { words += ["--seed", "\(seed)"] }
    }
    if let timeout, backend != "embedded" { words += ["--timeout", "\(Int(timeout))"] }
    if plain { words.append("--plain") }
    return words
  }

  private static let costs = EngineConfiguration.hashCosts

  /// Every option, in the order `--help` lists them.
  static let table: [OptionSpec<ShellOptions>] = [
    OptionSpec(
      ["--backend"], "embedded|supabase|firebase", ["where accounts live (default: embedded)"],
      section: "backend"
    ) { options, value throws(OptionValueError) in
      guard ["embedded", "supabase", "firebase"].contains(value) else {
        throw OptionValueError(
          expected: "embedded, supabase or firebase, not '\(value.prefix(20))'")
      }
      options.backend = value
    },
    OptionSpec(
      ["--store"], "PATH|:memory:",
      ["the embedded store (default: $XDG_DATA_HOME/authflow/auth.db)"], section: "backend",
      group: "embedded"
    ) { options, value in options.store = value },
    OptionSpec(
      ["--autoconfirm"], nil, ["sign new accounts in without email confirmation"],
      section: "backend",
      group: "embedded"
    ) { options, _ in options.autoconfirm = true },
    OptionSpec(
      ["--hash-cost"], "N",
      [
        "bcrypt cost of new passwords, \(costs.lowerBound)-\(costs.upperBound)"
          + " (default \(Bcrypt.defaultCost); lower for tests)"
      ],
      section: "backend", group: "embedded"
    ) { options, value throws(OptionValueError) in
      guard let cost = Int(value), costs.contains(cost) else {
        throw OptionValueError(
          expected: "a number from \(costs.lowerBound) to \(costs.upperBound); "
            + "the default is \(Bcrypt.defaultCost), GoTrue's; lower it for tests only")
      }
      options.hashCost = cost
    },
    OptionSpec(
      ["--seed"], "N",
      [
        "reproducible codes, tokens and clock, for golden transcripts",
        "(embedded: --store :memory: only; supabase: no saved session);",
        "unsafe anywhere else: the seed gives away every secret",
      ], section: "backend"
    ) { options, value throws(OptionValueError) in
      guard let seed = UInt64(value) else {
        throw OptionValueError(expected: "a whole number; for example --seed 1")
      }
      options.seed = seed
    },
    OptionSpec(
      ["--supabase-url"], "URL", ["the project URL (default: $SUPABASE_URL)"], section: "backend",
      group: "supabase"
    ) { options, value in options.supabaseURL = value },
    OptionSpec(
      ["--supabase-key"], "KEY", ["the project's anon key (default: $SUPABASE_ANON_KEY)"],
      section: "backend", group: "supabase"
    ) { options, value in options.supabaseKey = value },
    OptionSpec(
      ["--mailbox"], "URL",
      [
        "read the project's emails from a Mailpit API for the mail commands:",
        "authflow serve's URL, or http://127.0.0.1:54324 for supabase start",
      ], section: "backend", group: "supabase"
    ) { options, value in options.mailbox = value },
    OptionSpec(
      ["--firebase-project"], "ID", ["the Firebase project id (default: $FIREBASE_PROJECT_ID)"],
      section: "backend", group: "firebase"
    ) { options, value in options.firebaseProject = value },
    OptionSpec(
      ["--firebase-key"], "KEY",
      ["the project's Web API key (default: $FIREBASE_API_KEY; any with an emulator)"],
      section: "backend", group: "firebase"
    ) { options, value in options.firebaseKey = value },
    OptionSpec(
      ["--firebase-emulator"], "HOST:PORT",
      [
        "send the requests to the Firebase Auth emulator there (default:",
        "$FIREBASE_AUTH_EMULATOR_HOST), such as authflow serve --firebase-project ID",
      ], section: "backend", group: "firebase"
    ) { options, value in options.firebaseEmulator = value },
    OptionSpec(
      ["--timeout"], "SECONDS", ["how long a Supabase or Firebase request may take (default 10)"],
      section: "backend", group: "supabase|firebase"
    ) { options, value throws(OptionValueError) in
      guard let seconds = Double(value), seconds >= 1, seconds <= 300 else {
        throw OptionValueError(expected: "seconds from 1 to 300; the default is 10")
      }
      options.timeout = seconds
    },
    OptionSpec(
      ["-c", "--command"], "COMMANDS", ["run COMMANDS (separated by ;) and exit; may be repeated"],
      section: "scripts"
    ) { options, value in options.commands.append(value) },
    OptionSpec(
      ["--echo"], nil, ["print each command after its prompt, as a transcript"], section: "scripts"
    ) { options, _ in options.echo = true },
    OptionSpec(["--bail"], nil, ["stop at the first mistake or failed expect"], section: "scripts")
    {
      options, _ in options.bail = true
    },
    OptionSpec(
      ["--json"], nil, ["print one JSON object per command (secrets masked)"], section: "scripts"
    ) { options, _ in options.json = true },
    OptionSpec(
      ["--record"], "FILE",
      ["record the session as a script with checks, as the record command does"],
      section: "scripts"
    ) { options, value in options.record = value },
    OptionSpec(
      ["--keep-session"], nil,
      [
        "start from the session an earlier run saved, and save this one;",
        "scripts otherwise start signed out and leave the saved session alone",
      ], section: "scripts"
    ) { options, _ in options.keepSession = true },
    OptionSpec(
      ["--no-color", "--no-colour"], nil,
      ["no colour (also NO_COLOR=1, TERM=dumb, or not a terminal)"], section: "output"
    ) { options, _ in options.noColor = true },
    OptionSpec(
      ["--plain"], nil, ["words instead of symbols, for screen readers"], section: "output"
    ) {
      options, _ in options.plain = true
    },
    OptionSpec(["--version"], nil, ["print the version and exit"], section: "other") { options, _ in
      options.version = true
    },
    OptionSpec(["-h", "--help"], nil, ["print this help and exit"], section: "other") {
      options, _ in
      options.help = true
    },
  ]
}
