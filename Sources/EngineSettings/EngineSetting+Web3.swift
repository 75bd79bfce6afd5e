import CommandLineOptions

/// The Web3 providers' switches: serve's only, as the shell has no wallet to sign in with, so
/// they are not among ``EngineSetting/all``.
extension EngineSetting {
  /// `--web3-solana on|off`: Sign in with Solana.
  public static let web3Solana = EngineSetting(
    ["--web3-solana"], "on|off",
    ["Sign in with Solana, POST /token?grant_type=web3 (default off)"],
    environment: "GOTRUE_EXTERNAL_WEB3_SOLANA_ENABLED",
    config: ConfigKey("auth.web3.solana.enabled", .onOff)
  ) { settings, value throws(OptionValueError) in
    settings.engine.web3Solana = try onOff(value)
  }

  /// `--web3-ethereum on|off`: Sign in with Ethereum (EIP-4361).
  public static let web3Ethereum = EngineSetting(
    ["--web3-ethereum"], "on|off",
    ["Sign in with Ethereum, POST /token?grant_type=web3 (default off)"],
    environment: "GOTRUE_EXTERNAL_WEB3_ETHEREUM_ENABLED",
    config: ConfigKey("auth.web3.ethereum.enabled", .onOff)
  ) { settings, value throws(OptionValueError) in
    settings.engine.web3Ethereum = try onOff(value)
  }
}
