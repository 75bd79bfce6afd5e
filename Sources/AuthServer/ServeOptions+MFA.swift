import CommandLineOptions
import GoTrue

/// `authflow serve`'s MFA options, with GoTrue's variables (`GOTRUE_MFA_*`).
extension ServeOptions {
  /// The options of the "MFA" section of `--help`.
  static let mfaOptions: [OptionSpec<ServeOptions>] = [
    OptionSpec(
      ["--mfa-totp-enroll"], "true|false", ["let users enrol TOTP factors (default true)"],
      section: "MFA", environment: "GOTRUE_MFA_TOTP_ENROLL_ENABLED",
      config: ConfigKey("auth.mfa.totp.enroll_enabled", .onOff)
    ) { options, value throws(OptionValueError) in
      options.settings.engine.mfa.totpEnrollEnabled = try goBool(value)
    },
    OptionSpec(
      ["--mfa-totp-verify"], "true|false",
      ["let users challenge and verify TOTP factors (default true)"], section: "MFA",
      environment: "GOTRUE_MFA_TOTP_VERIFY_ENABLED",
      config: ConfigKey("auth.mfa.totp.verify_enabled", .onOff)
    ) { options, value throws(OptionValueError) in
      options.settings.engine.mfa.totpVerifyEnabled = try goBool(value)
    },
    OptionSpec(
      ["--mfa-max-enrolled-factors"], "N", ["factors one user may have (default 10)"],
      section: "MFA", environment: "GOTRUE_MFA_MAX_ENROLLED_FACTORS",
      config: ConfigKey("auth.mfa.max_enrolled_factors")
    ) { options, value throws(OptionValueError) in
      options.settings.engine.mfa.maxEnrolledFactors = try count(value)
    },
    OptionSpec(
      ["--mfa-max-verified-factors"], "N", ["verified factors one user may have (default 10)"],
      section: "MFA", environment: "GOTRUE_MFA_MAX_VERIFIED_FACTORS"
    ) { options, value throws(OptionValueError) in
      options.settings.engine.mfa.maxVerifiedFactors = try count(value)
    },
    OptionSpec(
      ["--mfa-challenge-expiry"], "SECONDS",
      ["how long a challenge can be answered (default and least 300)"],
      section: "MFA", environment: "GOTRUE_MFA_CHALLENGE_EXPIRY_DURATION"
    ) { options, value throws(OptionValueError) in
      guard let seconds = Double(value), seconds.isFinite, (0...86_400).contains(seconds) else {
        throw OptionValueError(expected: "seconds from 0 to 86400")
      }
      options.settings.engine.mfa.challengeExpiry = seconds
    },
    OptionSpec(
      ["--mfa-factor-expiry"], "DURATION",
      [
        "how long an unverified factor never challenged is kept",
        "(default 300s; below 300s means 300s)",
      ], section: "MFA", environment: "GOTRUE_MFA_FACTOR_EXPIRY_DURATION"
    ) { options, value throws(OptionValueError) in
      guard let seconds = GoDuration.seconds(value), (0...2_592_000).contains(seconds) else {
        throw OptionValueError(expected: "a duration such as 300s or 10m, up to 720h")
      }
      options.settings.engine.mfa.factorExpiry = seconds
    },
  ]

  /// A boolean as Go's `strconv.ParseBool` reads one (GoTrue's settings are read so).
  private static func goBool(_ value: String) throws(OptionValueError) -> Bool {
    switch value {
    case "1", "t", "T", "TRUE", "true", "True": return true
    case "0", "f", "F", "FALSE", "false", "False": return false
    default: throw OptionValueError(expected: "true or false")
    }
  }

  /// A number of factors, 0 to 1000.
  private static func count(_ value: String) throws(OptionValueError) -> Int {
    guard let number = Int(value), (0...1_000).contains(number) else {
      throw OptionValueError(expected: "a number from 0 to 1000")
    }
    return number
  }
}
