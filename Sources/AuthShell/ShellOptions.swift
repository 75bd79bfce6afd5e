import AuthCrypto

/// The command line of `authflow`.
public struct ShellOptions: Equatable, Sendable {
  /// `embedded` (default) or `supabase`.
  public var backend = "embedded"
  /// `--store PATH|:memory:`; `nil` for the default store.
  public var store: String?
  /// `--autoconfirm`.
  public var autoconfirm = false
  /// `--hash-cost N`.
  public var hashCost: Int?
  /// `--seed N`.
  public var seed: UInt64?
  /// `--supabase-url URL` (else `SUPABASE_URL`).
  public var supabaseURL: String?
  /// `--supabase-key KEY` (else `SUPABASE_ANON_KEY`).
  public var supabaseKey: String?
  /// `--timeout SECONDS` for Supabase requests.
  public var timeout: Double?
  /// `--echo`.
  public var echo = false
  /// `--bail`.
  public var bail = false
  /// `--json`.
  public var json = false
  /// `--no-color`.
  public var noColor = false
  /// `--plain`.
  public var plain = false
  /// `-c` commands, one line per `-c`.
  public var commands: [String] = []
  /// A script file to run.
  public var file: String?
  /// `--help`.
  public var help = false
  /// `--version`.
  public var version = false

  /// Defaults: the embedded backend, interactive or reading a script from standard input.
  public init() {}

  /// Parses the arguments after the program name.
  public static func parse(_ arguments: [String]) throws(ShellError) -> ShellOptions {
    var options = ShellOptions()
    var iterator = arguments.makeIterator()
    var onlyFiles = false
    func value(for name: String) throws(ShellError) -> String {
      guard let value = iterator.next() else {
        throw ShellError("\(name) needs a value", hint: "see authflow --help")
      }
      return value
    }
    while let argument = iterator.next() {
      if onlyFiles || !argument.hasPrefix("-") || argument == "-" {
        guard options.file == nil else {
          throw ShellError("only one script file can be run at a time", hint: "see authflow --help")
        }
        options.file = argument
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      func take() throws(ShellError) -> String {
        if let inline { return inline }
        return try value(for: name)
      }
      switch name {
      case "--": onlyFiles = true
      case "--backend":
        let backend = try take()
        guard backend == "embedded" || backend == "supabase" else {
          throw ShellError("--backend takes embedded or supabase, not '\(backend.prefix(20))'")
        }
        options.backend = backend
      case "--store": options.store = try take()
      case "--autoconfirm": options.autoconfirm = true
      case "--hash-cost":
        let text = try take()
        guard let cost = Int(text), (Bcrypt.minimumCost...Bcrypt.maximumCost).contains(cost) else {
          throw ShellError(
            "--hash-cost takes a number from \(Bcrypt.minimumCost) to \(Bcrypt.maximumCost)",
            hint: "the default is \(Bcrypt.defaultCost), GoTrue's; lower it for tests only")
        }
        options.hashCost = cost
      case "--seed":
        let text = try take()
        guard let seed = UInt64(text) else {
          throw ShellError("--seed takes a whole number", hint: "for example --seed 1")
        }
        options.seed = seed
      case "--supabase-url": options.supabaseURL = try take()
      case "--supabase-key": options.supabaseKey = try take()
      case "--timeout":
        let text = try take()
        guard let seconds = Double(text), seconds > 0, seconds <= 300 else {
          throw ShellError("--timeout takes seconds from 1 to 300", hint: "the default is 10")
        }
        options.timeout = seconds
      case "--echo": options.echo = true
      case "--bail": options.bail = true
      case "--json": options.json = true
      case "--no-color", "--no-colour": options.noColor = true
      case "--plain": options.plain = true
      case "-c", "--command": options.commands.append(try take())
      case "-h", "--help": options.help = true
      case "--version": options.version = true
      default:
        throw ShellError("unknown option '\(name.prefix(30))'", hint: "see authflow --help")
      }
      if inline != nil,
        ["--autoconfirm", "--echo", "--bail", "--json", "--no-color", "--plain"].contains(name)
      {
        throw ShellError("\(name) takes no value")
      }
    }
    if options.file != nil, !options.commands.isEmpty {
      throw ShellError("give either -c commands or a script file, not both")
    }
    if options.backend != "embedded" {
      for (set, flag) in [
        (options.store != nil, "--store"), (options.autoconfirm, "--autoconfirm"),
        (options.hashCost != nil, "--hash-cost"), (options.seed != nil, "--seed"),
      ] where set {
        throw ShellError("\(flag) applies to the embedded backend only")
      }
    } else {
      for (set, flag) in [
        (options.supabaseURL != nil, "--supabase-url"),
        (options.supabaseKey != nil, "--supabase-key"),
        (options.timeout != nil, "--timeout"),
      ] where set {
        throw ShellError(
          "\(flag) applies to the supabase backend only", hint: "add --backend supabase")
      }
    }
    return options
  }

  /// `authflow --help`.
  public static let usage = """
    authflow: explore, demo and script an app's sign-in flow.

    usage: authflow [options]              interactive shell (or a script on standard input)
           authflow [options] FILE         run a script file (#!/usr/bin/env authflow works)
           authflow [options] -c 'cmd; cmd'

    backend:
      --backend embedded|supabase   where accounts live (default: embedded)
      --store PATH|:memory:         the embedded store (default: $XDG_DATA_HOME/authflow/auth.db)
      --autoconfirm                 sign new accounts in without email confirmation
      --hash-cost N                 bcrypt cost of new passwords, 4-31 (default 10; lower for tests)
      --seed N                      reproducible codes, tokens and clock, for golden transcripts;
                                    unsafe anywhere else: the seed gives away every secret
      --supabase-url URL            the project URL (default: $SUPABASE_URL)
      --supabase-key KEY            the project's anon key (default: $SUPABASE_ANON_KEY)
      --timeout SECONDS             how long a Supabase request may take (default 10)

    scripts:
      -c COMMANDS                   run COMMANDS (separated by ;) and exit; may be repeated
      --echo                        print each command after its prompt, as a transcript
      --bail                        stop at the first mistake or failed expect
      --json                        print one JSON object per command (secrets masked)

    output:
      --no-color                    no colour (also NO_COLOR=1, TERM=dumb, or not a terminal)
      --plain                       words instead of symbols, for screen readers
      --version, --help

    Type help in the shell for its commands. Exit status: 0 when every command ran and every
    expect held, 1 otherwise, 2 for a bad command line.
    """
}
