import CommandLineOptions
import EngineSettings
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

  /// The feature and provider switches, in the order `--help` lists them.
  static let featureTable: [OptionSpec<ServeOptions>] = [
    OptionSpec(
      ["--enable-anonymous-users"], nil,
      ["POST /signup with neither email nor phone signs in an anonymous user"],
      section: "GoTrue", environment: "GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED",
      config: ConfigKey("auth.enable_anonymous_sign_ins", .flag(when: true))
    ) { options, _ in options.settings.engine.anonymousSignIns = true },
    EngineSetting.securePasswordChange.option(section: "GoTrue", readsGoTrueSettings: true),
    OptionSpec(
      ["--manual-linking"], nil,
      ["let users link and unlink identities (/user/identities)"], section: "GoTrue",
      environment: "GOTRUE_SECURITY_MANUAL_LINKING_ENABLED",
      config: ConfigKey("auth.enable_manual_linking", .flag(when: true))
    ) { options, _ in options.settings.engine.manualLinking = true },
    OptionSpec(
      ["--flow-state-expiry"], "DURATION",
      ["how long a PKCE flow lasts until its code is exchanged", "(default and least 300s)"],
      section: "GoTrue", environment: "GOTRUE_EXTERNAL_FLOW_STATE_EXPIRY_DURATION"
    ) { options, value throws(OptionValueError) in
      // GoTrue raises anything below 300 seconds to 300.
      options.settings.engine.flowStateLifetime = max(
        300, try seconds(value, in: 1...86_400, "a flow's lifetime"))
    },
    EngineSetting.oauthServer.option(section: "GoTrue", readsGoTrueSettings: true),
    EngineSetting.oauthAuthorizationPath.option(section: "GoTrue", readsGoTrueSettings: true),
    EngineSetting.oauthDynamicRegistration.option(section: "GoTrue", readsGoTrueSettings: true),
    EngineSetting.sessionsTimebox.option(section: "GoTrue", readsGoTrueSettings: true),
    EngineSetting.sessionsInactivityTimeout.option(section: "GoTrue", readsGoTrueSettings: true),
    OptionSpec(
      ["--email-provider"], "on|off",
      ["sign-ups and sign-ins by email (default on)"], section: "GoTrue",
      environment: "GOTRUE_EXTERNAL_EMAIL_ENABLED",
      config: ConfigKey("auth.email.enable_signup", .onOff)
    ) { options, value throws(OptionValueError) in
      options.settings.engine.emailProvider = try switchValue(value)
    },
    OptionSpec(
      ["--phone-provider"], "on|off",
      ["phone sign-in (default off); texted codes go to the outbox"],
      section: "GoTrue", environment: "GOTRUE_EXTERNAL_PHONE_ENABLED",
      config: ConfigKey("auth.sms.enable_signup", .onOff)
    ) { options, value throws(OptionValueError) in
      options.settings.engine.phoneProvider = try switchValue(value)
    },
    EngineSetting.web3Solana.option(section: "GoTrue", readsGoTrueSettings: true),
    EngineSetting.web3Ethereum.option(section: "GoTrue", readsGoTrueSettings: true),
  ]
}
