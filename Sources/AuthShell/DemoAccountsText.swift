import GoTrueEngine

/// What the shell says of the embedded store's demo accounts: the greeting, `help` and the
/// manual page give the same words, from the accounts the engine makes.
enum DemoAccountsText {
  /// The accounts with their passwords, in one phrase.
  static let accounts =
    "\(DemoAccounts.confirmed.email) / \(DemoAccounts.confirmed.password) (confirmed) and "
    + "\(DemoAccounts.unconfirmed.email) / \(DemoAccounts.unconfirmed.password) "
    + "(waiting for its confirmation)"

  /// The lines an interactive session on the embedded backend starts with: the accounts, and
  /// how to start over (on a store kept between runs) or that nothing is kept.
  static func greeting(inMemory: Bool) -> [String] {
    [
      "Demo accounts: \(accounts).",
      inMemory
        ? "This store is in memory: nothing is kept when the shell ends."
        : "reset-demo puts them back as new; --store :memory: starts a throw-away store.",
    ]
  }

  /// What `reset-demo` prints once done.
  static let restored = "Demo accounts restored: \(accounts)."
}
