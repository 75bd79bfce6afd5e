import CommandLineOptions
import GoTrueEngine

/// The options of `authflow serve` that switch GoTrue's features and providers, each with the
/// variable GoTrue reads for it.
extension ServeOptions {
  /// A switch as GoTrue's variables and the command line write it.
  static func switchValue(_ value: String) throws(OptionValueError) -> Bool {
    switch value.lowercased() {
    case "on", "true", "t", "1": return true
    case "off", "false", "f", "0": return false
    default: throw OptionValueError(expected: "on or off (or true or false)")
    }
  }

  /// A session limit: a positive duration, as GoTrue's `SessionsConfiguration.Validate` asks,
  /// up to ten years.
  fileprivate static func sessionLimit(_ value: String, _ meaning: String)
    throws(OptionValueError) -> Double
  {
    try seconds(value, in: 1...315_360_000, meaning)
  }

  /// The feature and provider switches, in the order `--help` lists them.
  static let featureTable: [OptionSpec<ServeOptions>] = [
    OptionSpec(
      ["--enable-anonymous-users"], nil,
      ["POST /signup with neither email nor phone signs in an anonymous user"],
      section: "GoTrue", environment: "GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED"
    ) { options, _ in options.engine.anonymousSignIns = true },
    OptionSpec(
      ["--secure-password-change"], nil,
      [
        "a password change from a session over a day old needs the",
        "nonce GET /reauthenticate emails",
      ], section: "GoTrue",
      environment: "GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION"
    ) { options, _ in options.engine.passwordChangeNeedsReauthentication = true },
    OptionSpec(
      ["--manual-linking"], nil,
      ["let users link and unlink identities (/user/identities)"], section: "GoTrue",
      environment: "GOTRUE_SECURITY_MANUAL_LINKING_ENABLED"
    ) { options, _ in options.engine.manualLinking = true },
    OptionSpec(
      ["--flow-state-expiry"], "DURATION",
      ["how long a PKCE flow lasts until its code is exchanged", "(default and least 300s)"],
      section: "GoTrue", environment: "GOTRUE_EXTERNAL_FLOW_STATE_EXPIRY_DURATION"
    ) { options, value throws(OptionValueError) in
      // GoTrue raises anything below 300 seconds to 300.
      options.engine.flowStateLifetime = max(
        300, try seconds(value, in: 1...86_400, "a flow's lifetime"))
    },
    OptionSpec(
      ["--sessions-timebox"], "DURATION",
      ["end sessions this long after sign-in: their refresh is refused", "(24h; default none)"],
      section: "GoTrue", environment: "GOTRUE_SESSIONS_TIMEBOX"
    ) { options, value throws(OptionValueError) in
      options.engine.sessionLimits.timebox = try sessionLimit(value, "a session's timebox")
    },
    OptionSpec(
      ["--sessions-inactivity-timeout"], "DURATION",
      ["end sessions not refreshed for this long (8h; default none)"], section: "GoTrue",
      environment: "GOTRUE_SESSIONS_INACTIVITY_TIMEOUT"
    ) { options, value throws(OptionValueError) in
      options.engine.sessionLimits.inactivityTimeout = try sessionLimit(
        value, "a session's inactivity timeout")
    },
    OptionSpec(
      ["--email-provider"], "on|off",
      ["sign-ups and sign-ins by email (default on)"], section: "GoTrue",
      environment: "GOTRUE_EXTERNAL_EMAIL_ENABLED"
    ) { options, value throws(OptionValueError) in
      options.engine.emailProvider = try switchValue(value)
    },
    OptionSpec(
      ["--phone-provider"], "on|off",
      ["phone sign-in (default off); on, serve warns: it has no SMS provider"],
      section: "GoTrue", environment: "GOTRUE_EXTERNAL_PHONE_ENABLED"
    ) { options, value throws(OptionValueError) in
      options.engine.phoneProvider = try switchValue(value)
    },
  ]
}
