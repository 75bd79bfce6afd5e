import AccountStore
import CommandLineOptions
import EngineSettings
import GoTrueEngine
import PrivateFiles
import UserSeeds

#if canImport(Glibc)
  import Glibc
#endif

/// `authflow users export`: a store's accounts as a users file, in authflow's format or the
/// Firebase emulator's, on standard output or in a file only its owner may read. With
/// `--users FILE` on `:memory:` it converts one users file into the other format.
enum UsersCommand {
  /// What `authflow users export` reads from its command line.
  struct Options: HoldsEngineSettings {
    /// `--store` and `--users`, as the shell and serve read them.
    var settings = EngineSettings()
    var format = UsersFile.Format.authflow
    var output: String?
    var help = false
  }

  /// The options of `authflow users export`, in the order `--help` lists them.
  static let table: [OptionSpec<Options>] = [
    EngineSetting.store.option(section: "export", readsGoTrueSettings: false),
    OptionSpec(
      ["--format"], "authflow|firebase",
      ["authflow's format (default), or the Firebase emulator's accounts.json"],
      section: "export"
    ) { options, value throws(OptionValueError) in
      guard let format = UsersFile.Format(rawValue: value) else {
        throw OptionValueError(expected: "authflow or firebase, not '\(value.prefix(20))'")
      }
      options.format = format
    },
    OptionSpec(
      ["--output"], "FILE", ["write FILE (mode 0600) instead of standard output"],
      section: "export"
    ) { options, value in options.output = value },
    EngineSetting.users.option(section: "export", readsGoTrueSettings: false),
    OptionSpec(["-h", "--help"], nil, ["print this help and exit"], section: "other") {
      options, _ in options.help = true
    },
  ]

  /// `authflow users --help`.
  static var usage: String {
    ([
      "authflow users export: \(abstract) (for --users).",
      "",
      "usage: authflow users export [--store PATH|URL] [--format authflow|firebase] [--output FILE]",
      "",
    ] + about + OptionParser.usage(table, sections: sections)).joined(separator: "\n")
  }

  /// What `authflow users export` does, in a few words.
  static let abstract = "a store's accounts as a users file"

  /// What `--help` says before the options.
  static let about = ["Passwords are written as their bcrypt hashes, never in the clear."]

  /// The sections of the options, in the order `--help` lists them.
  static let sections = ["export", "other"]

  /// Runs `authflow users` with `arguments` (after `users`); the exit status: 0 when written,
  /// 1 when the store or a file cannot be read or written, 2 for a bad command line.
  static func run(arguments: [String], environment: [String: String]) -> Int32 {
    let parsed: ParsedCommandLine<Options>
    do {
      parsed = try OptionParser.parse(arguments, table: table, into: Options())
    } catch {
      return fail(error.text(program: "authflow users"), status: 2)
    }
    let options = parsed.options
    if options.help {
      say(usage + "\n", to: 1)
      return 0
    }
    guard parsed.operands == ["export"] else {
      return fail(
        "the action is export: authflow users export [--store PATH]; see authflow users --help",
        status: 2)
    }
    // The row has checked the value already.
    let store =
      options.settings.store.flatMap { try? StoreLocation(argument: $0) }
      ?? StoreLocation.defaultStore(environment: environment)
    if case .file(let path) = store, access(path, F_OK) != 0 {
      return fail("there is no store at \(path); pass --store with an authflow store", status: 1)
    }
    var configuration = EngineConfiguration()
    configuration.seedsDemoAccounts = false
    let bytes: [UInt8]
    do {
      let engine = try EmbeddedGoTrue(location: store, configuration: configuration)
      if let users = options.settings.users {
        _ = try engine.seed(try UsersFile.read(path: users), file: users)
      }
      bytes = UsersFile.encode(try engine.seedAccounts(), format: options.format)
    } catch {
      return fail("\(error)", status: 1)
    }
    guard let output = options.output else {
      say(String(decoding: bytes, as: UTF8.self), to: 1)
      return 0
    }
    do {
      try PrivateFile.write(bytes, to: output)
    } catch {
      return fail("cannot write \(error.description)", status: 1)
    }
    return 0
  }

  private static func fail(_ text: String, status: Int32) -> Int32 {
    say("authflow users: \(text)\n", to: 2)
    return status
  }

  private static func say(_ text: String, to descriptor: Int32) {
    var text = text
    _ = text.withUTF8 { write(descriptor, $0.baseAddress, $0.count) }
  }
}
