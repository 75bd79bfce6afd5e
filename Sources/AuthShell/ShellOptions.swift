import AuthCrypto
import GoTrueEngine

/// The command line of `authflow`.
struct ShellOptions: Equatable, Sendable {
  /// `embedded` (default) or `supabase`.
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
  /// `--timeout SECONDS` for Supabase requests.
  var timeout: Double?
  /// `--echo`.
  var echo = false
  /// `--bail`.
  var bail = false
  /// `--json`.
  var json = false
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

  /// Parses the arguments after the program name.
  static func parse(_ arguments: [String]) throws(ShellError) -> ShellOptions {
    var options = ShellOptions()
    var given: [OptionSpec] = []
    var remaining = arguments[...]
    var onlyFiles = false
    while let argument = remaining.popFirst() {
      if onlyFiles || !argument.hasPrefix("-") || argument == "-" {
        guard options.file == nil else { throw .oneScriptOnly }
        options.file = argument
        continue
      }
      if argument == "--" {
        onlyFiles = true
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      guard let spec = OptionSpec.named(name) else { throw .unknownOption(name) }
      let value: String
      if spec.value == nil {
        guard inline == nil else { throw .optionTakesNoValue(name) }
        value = ""
      } else if let inline {
        value = inline
      } else if let next = remaining.popFirst() {
        value = next
      } else {
        throw .optionNeedsValue(name)
      }
      try spec.apply(&options, value)
      given.append(spec)
    }
    if options.file != nil, !options.commands.isEmpty { throw .commandsAndScript }
    for spec in given {
      if let backend = spec.backend, backend != options.backend {
        throw .optionOfOtherBackend(option: spec.names[0], backend: backend)
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
    ]
    for section in OptionSpec.Section.allCases {
      lines += ["", "\(section.rawValue):"]
      for spec in OptionSpec.all where spec.section == section {
        let synopsis = spec.names.joined(separator: ", ") + (spec.value.map { " " + $0 } ?? "")
        let column = 32
        let padding = max(1, column - 2 - synopsis.count)
        lines.append("  " + synopsis + String(repeating: " ", count: padding) + spec.help[0])
        lines += spec.help.dropFirst().map { String(repeating: " ", count: column) + $0 }
      }
    }
    lines += [
      "",
      "Type help in the shell for its commands. Exit status: 0 when every command ran and every",
      "expect held, 1 otherwise, 2 for a bad command line.",
    ]
    return lines.joined(separator: "\n")
  }
}

/// One option of the command line: its names, value, help, the backend it belongs to, and how
/// it sets the options. Parsing, the backend checks and `--help` read this table.
struct OptionSpec: Sendable {
  /// The headings of `--help`.
  enum Section: String, CaseIterable, Sendable {
    case backend, scripts, output, other
  }

  /// The names, e.g. `-c`, `--command`.
  let names: [String]
  /// The value's placeholder, e.g. `N`; `nil` for a flag.
  let value: String?
  /// The help text, one line or more.
  let help: [String]
  /// Where `--help` lists it.
  let section: Section
  /// The backend it applies to, if only one.
  let backend: String?
  /// Sets the options from the value (empty for a flag).
  let apply: @Sendable (inout ShellOptions, String) throws(ShellError) -> Void

  init(
    _ names: [String], _ value: String?, _ help: [String], section: Section,
    backend: String? = nil,
    apply: @escaping @Sendable (inout ShellOptions, String) throws(ShellError) -> Void
  ) {
    self.names = names
    self.value = value
    self.help = help
    self.section = section
    self.backend = backend
    self.apply = apply
  }

  /// The option named `name`.
  static func named(_ name: String) -> OptionSpec? {
    all.first { $0.names.contains(name) }
  }

  private static let costs = EngineConfiguration.hashCosts

  /// Every option, in the order `--help` lists them.
  static let all: [OptionSpec] = [
    OptionSpec(
      ["--backend"], "embedded|supabase", ["where accounts live (default: embedded)"],
      section: .backend
    ) { options, value throws(ShellError) in
      guard ["embedded", "supabase"].contains(value) else {
        throw .badOptionValue(
          option: "--backend", expected: "embedded or supabase, not '\(value.prefix(20))'")
      }
      options.backend = value
    },
    OptionSpec(
      ["--store"], "PATH|:memory:",
      ["the embedded store (default: $XDG_DATA_HOME/authflow/auth.db)"], section: .backend,
      backend: "embedded"
    ) { options, value in options.store = value },
    OptionSpec(
      ["--autoconfirm"], nil, ["sign new accounts in without email confirmation"],
      section: .backend,
      backend: "embedded"
    ) { options, _ in options.autoconfirm = true },
    OptionSpec(
      ["--hash-cost"], "N",
      [
        "bcrypt cost of new passwords, \(costs.lowerBound)-\(costs.upperBound)"
          + " (default \(Bcrypt.defaultCost); lower for tests)"
      ],
      section: .backend, backend: "embedded"
    ) { options, value throws(ShellError) in
      guard let cost = Int(value), costs.contains(cost) else {
        throw .badOptionValue(
          option: "--hash-cost",
          expected: "a number from \(costs.lowerBound) to \(costs.upperBound); "
            + "the default is \(Bcrypt.defaultCost), GoTrue's; lower it for tests only")
      }
      options.hashCost = cost
    },
    OptionSpec(
      ["--seed"], "N",
      [
        "reproducible codes, tokens and clock, for golden transcripts;",
        "unsafe anywhere else: the seed gives away every secret",
      ], section: .backend, backend: "embedded"
    ) { options, value throws(ShellError) in
      guard let seed = UInt64(value) else {
        throw .badOptionValue(option: "--seed", expected: "a whole number; for example --seed 1")
      }
      options.seed = seed
    },
    OptionSpec(
      ["--supabase-url"], "URL", ["the project URL (default: $SUPABASE_URL)"], section: .backend,
      backend: "supabase"
    ) { options, value in options.supabaseURL = value },
    OptionSpec(
      ["--supabase-key"], "KEY", ["the project's anon key (default: $SUPABASE_ANON_KEY)"],
      section: .backend, backend: "supabase"
    ) { options, value in options.supabaseKey = value },
    OptionSpec(
      ["--timeout"], "SECONDS", ["how long a Supabase request may take (default 10)"],
      section: .backend, backend: "supabase"
    ) { options, value throws(ShellError) in
      guard let seconds = Double(value), seconds >= 1, seconds <= 300 else {
        throw .badOptionValue(
          option: "--timeout", expected: "seconds from 1 to 300; the default is 10")
      }
      options.timeout = seconds
    },
    OptionSpec(
      ["-c", "--command"], "COMMANDS", ["run COMMANDS (separated by ;) and exit; may be repeated"],
      section: .scripts
    ) { options, value in options.commands.append(value) },
    OptionSpec(
      ["--echo"], nil, ["print each command after its prompt, as a transcript"], section: .scripts
    ) { options, _ in options.echo = true },
    OptionSpec(["--bail"], nil, ["stop at the first mistake or failed expect"], section: .scripts) {
      options, _ in options.bail = true
    },
    OptionSpec(
      ["--json"], nil, ["print one JSON object per command (secrets masked)"], section: .scripts
    ) { options, _ in options.json = true },
    OptionSpec(
      ["--no-color", "--no-colour"], nil,
      ["no colour (also NO_COLOR=1, TERM=dumb, or not a terminal)"], section: .output
    ) { options, _ in options.noColor = true },
    OptionSpec(["--plain"], nil, ["words instead of symbols, for screen readers"], section: .output)
    {
      options, _ in options.plain = true
    },
    OptionSpec(["--version"], nil, ["print the version and exit"], section: .other) { options, _ in
      options.version = true
    },
    OptionSpec(["-h", "--help"], nil, ["print this help and exit"], section: .other) { options, _ in
      options.help = true
    },
  ]
}
