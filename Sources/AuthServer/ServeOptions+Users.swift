import CommandLineOptions

extension ServeOptions {
  /// `--users FILE`: the accounts the store is brought to at start.
  static let usersOptions: [OptionSpec<ServeOptions>] = [
    OptionSpec(
      ["--users"], "FILE",
      [
        "seed the store with FILE's accounts at each start, idempotently",
        "(authflow's users file, or the Firebase emulator's accounts.json);",
        "no demo accounts then",
      ], section: "server", environment: "AUTHFLOW_USERS"
    ) { options, value in options.users = value }
  ]
}
