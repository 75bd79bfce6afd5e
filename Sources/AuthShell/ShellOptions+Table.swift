import AccountStore
import AuthCrypto
import CommandLineOptions
import EngineSettings
import GoTrue
import GoTrueEngine

/// One option of `authflow`, declared with what a script's `#!` line may ask of it, so that a
/// new option cannot be added without saying so.
struct ShellOption: Sendable {
  /// The option, as the parser and `--help` read it.
  let spec: OptionSpec<ShellOptions>
  /// What a `#!` line may ask of it.
  let scriptLine: ScriptLineRule

  /// An option with the parts of ``OptionSpec`` and its rule for `#!` lines.
  init(
    _ names: [String], _ value: String?, _ help: [String], section: String,
    group: String? = nil, scriptLine: ScriptLineRule,
    optionalValue: (@Sendable (String) -> Bool)? = nil,
    apply: @escaping @Sendable (inout ShellOptions, String) throws(OptionValueError) -> Void
  ) {
    spec = OptionSpec(
      names, value, help, section: section, group: group, optionalValue: optionalValue,
      apply: apply)
    self.scriptLine = scriptLine
  }

  /// An engine setting, declared once for the shell and serve (GoTrue's variables are serve's
  /// to read), listed under `section`.
  init(
    _ setting: EngineSetting, section: String = "backend",
    group: String? = BackendKind.embedded.rawValue, scriptLine: ScriptLineRule
  ) {
    spec = setting.option(section: section, group: group, readsGoTrueSettings: false)
    self.scriptLine = scriptLine
  }
}

extension ShellOptions {
  /// Every option, as the parser and `--help` read it, in the order `--help` lists them.
  static let table = options.map(\.spec)

  /// The option named `name` (any of its names), or `nil`.
  static func option(named name: String) -> ShellOption? {
    options.first { $0.spec.names.contains(name) }
  }

  /// Every option with what a script's `#!` line may ask of it (``ScriptLineRule``), in the
  /// order `--help` lists them.
  static let options: [ShellOption] = [
    // Where accounts live: the line may only keep them in the run's own memory.
    ShellOption(
      ["--backend"], BackendKind.choices, ["where accounts live (default: embedded)"],
      section: "backend", scriptLine: .backend
    ) { options, value throws(OptionValueError) in
      guard let kind = BackendKind(rawValue: value) else {
        throw OptionValueError(expected: "\(BackendKind.listing), not '\(value.prefix(20))'")
      }
      options.backend = kind
    },
    ShellOption(.store, scriptLine: .onlyValue(":memory:")),
    // Reads a file of the user's.
    ShellOption(.users, scriptLine: .commandLineOnly),
    ShellOption(.autoconfirm, scriptLine: .onMemoryStore),
    ShellOption(.hashCost, group: "embedded|firebase", scriptLine: .onMemoryStore),
    ShellOption(.passwordMinimumLength, scriptLine: .onMemoryStore),
    ShellOption(.passwordRequiredCharacters, scriptLine: .onMemoryStore),
    ShellOption(.disableSignup, scriptLine: .onMemoryStore),
    ShellOption(.sessionsTimebox, scriptLine: .onMemoryStore),
    ShellOption(.sessionsInactivityTimeout, scriptLine: .onMemoryStore),
    ShellOption(.securePasswordChange, scriptLine: .onMemoryStore),
    ShellOption(.redirectURLs, scriptLine: .onMemoryStore),
    ShellOption(.seed, group: nil, scriptLine: .onMemoryStore),
    ShellOption(
      ["--supabase-url"], "URL", ["the project URL (default: $SUPABASE_URL)"], section: "backend",
      group: BackendKind.supabase.rawValue, scriptLine: .commandLineOnly
    ) { options, value in options.supabaseURL = value },
    ShellOption(
      ["--supabase-key"], "KEY", ["the project's anon key (default: $SUPABASE_ANON_KEY)"],
      section: "backend", group: BackendKind.supabase.rawValue, scriptLine: .commandLineOnly
    ) { options, value in options.supabaseKey = value },
    ShellOption(
      ["--mailbox"], "URL",
      [
        "read the project's emails from a Mailpit API for the mail commands:",
        "authflow serve's URL, or http://127.0.0.1:54324 for supabase start",
      ], section: "backend", group: BackendKind.supabase.rawValue, scriptLine: .commandLineOnly
    ) { options, value in options.mailbox = value },
    // Changes what the app asks of the server, not where accounts live.
    ShellOption(
      ["--app-scheme"], "SCHEME",
      [
        "the app's URL scheme: sign-ups ask for their confirmation links back into",
        "SCHEME://auth/verify (seed 004's emailRedirectTo), which the server must allow",
      ], section: "backend", group: "embedded|supabase", scriptLine: .anyValue
    ) { options, value throws(OptionValueError) in
      options.appScheme = try AppScheme.validated(value)
    },
    ShellOption(
      ["--firebase-project"], "ID", ["the Firebase project id (default: $FIREBASE_PROJECT_ID)"],
      section: "backend", group: BackendKind.firebase.rawValue, scriptLine: .commandLineOnly
    ) { options, value in options.firebaseProject = value },
    ShellOption(
      ["--firebase-key"], "KEY",
      ["the project's Web API key (default: $FIREBASE_API_KEY; any with an emulator)"],
      section: "backend", group: BackendKind.firebase.rawValue, scriptLine: .commandLineOnly
    ) { options, value in options.firebaseKey = value },
    ShellOption(
      ["--firebase-emulator"], "HOST:PORT|local",
      [
        "send the requests to the Firebase Auth emulator there (default:",
        "$FIREBASE_AUTH_EMULATOR_HOST), such as authflow serve --firebase-project ID;",
        "local: start one in this process, on a store of its own in memory",
      ], section: "backend", group: BackendKind.firebase.rawValue,
      scriptLine: .onlyValue(ShellOptions.localEmulator)
    ) { options, value in options.firebaseEmulator = value },
    // How long a request may wait reads and writes nothing; the project is the command line's.
    ShellOption(
      ["--timeout"], "SECONDS", ["how long a Supabase or Firebase request may take (default 10)"],
      section: "backend", group: "supabase|firebase", scriptLine: .anyValue
    ) { options, value throws(OptionValueError) in
      guard let seconds = Double(value), seconds >= 1, seconds <= 300 else {
        throw OptionValueError(expected: "seconds from 1 to 300; the default is 10")
      }
      options.timeout = seconds
    },
    // A script is its own commands; -c beside a file is refused anyway.
    ShellOption(
      ["-c", "--command"], "COMMANDS", ["run COMMANDS (separated by ;) and exit; may be repeated"],
      section: "scripts", scriptLine: .commandLineOnly
    ) { options, value in options.commands.append(value) },
    ShellOption(
      ["--echo"], nil, ["print each command after its prompt, as a transcript"],
      section: "scripts", scriptLine: .anyValue
    ) { options, _ in options.echo = true },
    ShellOption(
      ["--bail"], nil, ["stop at the first mistake or failed expect"], section: "scripts",
      scriptLine: .anyValue
    ) { options, _ in options.bail = true },
    ShellOption(
      ["--json"], nil, ["print one JSON object per command (secrets masked)"],
      section: "scripts", scriptLine: .anyValue
    ) { options, _ in options.json = true },
    // Writes a file of the user's.
    ShellOption(
      ["--record"], "FILE",
      ["record the session as a script with checks, as the record command does"],
      section: "scripts", scriptLine: .commandLineOnly
    ) { options, value in options.record = value },
    // Opens a port: the command line's to ask for.
    ShellOption(
      ["--present"], "[PORT]",
      [
        "show the app's screen live in a browser at http://127.0.0.1:PORT/",
        "(none or 0: a free port; present: URL on standard error)",
      ], section: "output", scriptLine: .commandLineOnly, optionalValue: ShellOptions.isNumber
    ) { options, value throws(OptionValueError) in
      guard let port = value.isEmpty ? 0 : UInt16(value) else {
        throw OptionValueError(expected: "a port from 0 to 65535, or none for a free one")
      }
      options.present = port
    },
    // Restores and saves the user's session.
    ShellOption(
      ["--keep-session"], nil,
      [
        "start from the session an earlier run saved, and save this one;",
        "scripts otherwise start signed out and leave the saved session alone",
      ], section: "scripts", scriptLine: .commandLineOnly
    ) { options, _ in options.keepSession = true },
    ShellOption(
      ["--no-color", "--no-colour"], nil,
      ["no colour (also NO_COLOR=1, TERM=dumb, or not a terminal)"], section: "output",
      scriptLine: .anyValue
    ) { options, _ in options.noColor = true },
    ShellOption(
      ["--plain"], nil, ["words instead of symbols, for screen readers"], section: "output",
      scriptLine: .anyValue
    ) { options, _ in options.plain = true },
    ShellOption(
      ["--version"], nil, ["print the version and exit"], section: "other", scriptLine: .anyValue
    ) { options, _ in options.version = true },
    ShellOption(
      ["-h", "--help"], nil, ["print this help and exit"], section: "other",
      scriptLine: .anyValue
    ) { options, _ in options.help = true },
    // Print and exit: nothing a script's line needs.
    ShellOption(
      ["--generate-manual"], nil, ["print the manual page authflow(1), in roff, and exit"],
      section: "other", scriptLine: .commandLineOnly
    ) { options, _ in options.generateManual = true },
    ShellOption(
      ["--generate-completion-script"], CompletionShell.choices,
      ["print the completion script of that shell and exit"], section: "other",
      scriptLine: .commandLineOnly
    ) { options, value throws(OptionValueError) in
      guard let shell = CompletionShell(rawValue: value) else {
        throw OptionValueError(expected: "bash, zsh or fish, not '\(value.prefix(20))'")
      }
      options.completionScript = shell
    },
  ]
}
