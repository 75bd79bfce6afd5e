import CommandLineOptions
import GoTrueEngine

/// The options of `authflow serve` for phone sign-in's text messages (GoTrue's `SMS_*`
/// settings; the Supabase CLI's `[auth.sms]`). The messages go to the outbox, never anywhere.
extension ServeOptions {
  /// The SMS options, in the order `--help` lists them.
  static let smsOptions: [OptionSpec<ServeOptions>] = [
    OptionSpec(
      ["--sms-autoconfirm"], nil, ["sign new phone users in at once, no confirmation SMS"],
      section: "GoTrue", environment: "GOTRUE_SMS_AUTOCONFIRM",
      config: ConfigKey("auth.sms.enable_confirmations", .flag(when: false))
    ) { options, _ in options.settings.engine.smsAutoconfirm = true },
    OptionSpec(
      ["--sms-otp-exp"], "SECONDS", ["how long texted codes last (default 60)"],
      section: "GoTrue", environment: "GOTRUE_SMS_OTP_EXP"
    ) { options, value throws(OptionValueError) in
      guard let seconds = Int(value), (1...86_400).contains(seconds) else {
        throw OptionValueError(expected: "seconds from 1 to 86400")
      }
      options.settings.engine.smsCodeLifetime = Double(seconds)
    },
    OptionSpec(
      ["--sms-otp-length"], "N", ["the digits of a texted code, 6 to 10 (default 6)"],
      section: "GoTrue", environment: "GOTRUE_SMS_OTP_LENGTH"
    ) { options, value throws(OptionValueError) in
      guard let length = Int(value), PhoneRules.codeLengths.contains(length) else {
        throw OptionValueError(expected: "a number of digits from 6 to 10")
      }
      options.settings.engine.smsCodeLength = length
    },
    OptionSpec(
      ["--sms-max-frequency"], "DURATION",
      ["the least time between two texted codes of one kind", "to one user (default 60s)"],
      section: "GoTrue", environment: "GOTRUE_SMS_MAX_FREQUENCY",
      config: ConfigKey("auth.sms.max_frequency")
    ) { options, value throws(OptionValueError) in
      options.settings.engine.smsInterval = try seconds(value, in: 0...86_400, "a wait")
    },
    OptionSpec(
      ["--sms-template"], "TEXT",
      [
        "the words of a texted code, {{ .Code }} the code",
        "(default \"Your code is {{ .Code }}\")",
      ],
      section: "GoTrue", environment: "GOTRUE_SMS_TEMPLATE",
      config: ConfigKey("auth.sms.template")
    ) { options, value throws(OptionValueError) in
      guard value.contains("{{ .Code }}") || value.contains("{{.Code}}"), value.utf8.count <= 1_000
      else {
        throw OptionValueError(
          expected: "words holding {{ .Code }}, such as \"Your code is {{ .Code }}\"")
      }
      options.settings.engine.smsTemplate = value
    },
  ]
}
