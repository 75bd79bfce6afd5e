import CommandLineOptions
import GoTrueEngine

/// The rate-limit options of `authflow serve`: GoTrue's request limits, kept per client by the
/// server, and the limits the engine keeps per account, per address and in all.
extension ServeOptions {
  /// The rate-limit options, in the order `--help` lists them.
  static let rateLimitTable: [OptionSpec<ServeOptions>] = [
    OptionSpec(
      ["--rate-limit-header"], "NAME",
      [
        "tell clients apart for the request limits below by the first value",
        "of header NAME, as GoTrue does (behind a proxy: X-Forwarded-For);",
        "a request without it is not limited. Default: none, and no request",
        "is limited on loopback, as in GoTrue; listening beyond loopback",
        "(--host), requests are limited per client address, which GoTrue",
        "does not do",
      ], section: "rate limits", environment: "GOTRUE_RATE_LIMIT_HEADER"
    ) { options, value throws(OptionValueError) in
      guard !value.isEmpty, value.utf8.allSatisfy(isHeaderNameByte) else {
        throw OptionValueError(expected: "a header name such as X-Forwarded-For")
      }
      options.requestLimits.header = value
    },
    OptionSpec(
      ["--sb-forwarded-for"], nil,
      [
        "tell clients apart by a valid address in Sb-Forwarded-For first",
        "(only behind a proxy that sets it; off by default)",
      ], section: "rate limits", environment: "GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED"
    ) { options, _ in options.requestLimits.trustsForwardedFor = true },
    OptionSpec(
      ["--rate-limit-otp"], "N",
      [
        "signups, recoveries, resends, magic links, OTPs and user updates",
        "per 5 minutes per client, each route its own budget (default 30;",
        "bursts of 30)",
      ], section: "rate limits", environment: "GOTRUE_RATE_LIMIT_OTP",
      config: ConfigKey("auth.rate_limit.sign_in_sign_ups")
    ) { options, value throws(OptionValueError) in
      options.requestLimits.otp = try rate(value, per: "5 minutes")
    },
    OptionSpec(
      ["--rate-limit-token-refresh"], "N",
      ["sign-ins and refreshes per 5 minutes per client (default 150;", "bursts of 30)"],
      section: "rate limits", environment: "GOTRUE_RATE_LIMIT_TOKEN_REFRESH",
      config: ConfigKey("auth.rate_limit.token_refresh")
    ) { options, value throws(OptionValueError) in
      options.requestLimits.tokenRefresh = try rate(value, per: "5 minutes")
    },
    OptionSpec(
      ["--rate-limit-verify"], "N",
      [
        "/verify requests per 5 minutes per client (bursts of 30), and",
        "code checks per account, whoever asks (default 30)",
      ], section: "rate limits", environment: "GOTRUE_RATE_LIMIT_VERIFY",
      config: ConfigKey("auth.rate_limit.token_verifications")
    ) { options, value throws(OptionValueError) in
      let rate = try rate(value, per: "5 minutes")
      options.requestLimits.verify = rate
      options.settings.engine.rateLimits.verify = EngineConfiguration.Budget(
        capacity: rate, period: 300)
    },
    OptionSpec(
      ["--rate-limit-anonymous-users"], "N",
      ["anonymous sign-ins per hour per client (default 30)"], section: "rate limits",
      environment: "GOTRUE_RATE_LIMIT_ANONYMOUS_USERS",
      config: ConfigKey("auth.rate_limit.anonymous_users")
    ) { options, value throws(OptionValueError) in
      options.requestLimits.anonymousUsers = try rate(value, per: "hour")
    },
    OptionSpec(
      ["--rate-limit-web3"], "N",
      ["Web3 sign-ins per 5 minutes per client (default 30; bursts of 30)"],
      section: "rate limits", environment: "GOTRUE_RATE_LIMIT_WEB3",
      config: ConfigKey("auth.rate_limit.web3")
    ) { options, value throws(OptionValueError) in
      options.requestLimits.web3 = try rate(value, per: "5 minutes")
    },
    OptionSpec(
      ["--rate-limit-mfa"], "N",
      ["MFA challenges, and verifications, per minute per client", "(default 15; bursts of 30)"],
      section: "rate limits", environment: "GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY"
    ) { options, value throws(OptionValueError) in
      options.requestLimits.mfa = try rate(value, per: "minute")
    },
    OptionSpec(
      ["--rate-limit-email-sent"], "N", ["emails sent per hour, all addresses (default 30)"],
      section: "rate limits", environment: "GOTRUE_RATE_LIMIT_EMAIL_SENT",
      config: ConfigKey("auth.rate_limit.email_sent")
    ) { options, value throws(OptionValueError) in
      let rate = try rate(value, per: "hour")
      options.settings.engine.rateLimits.emailSent = EngineConfiguration.Budget(
        capacity: rate, period: 3_600)
    },
    OptionSpec(
      ["--rate-limit-sms-sent"], "N",
      ["text messages sent per hour, all numbers (default 30)"], section: "rate limits",
      environment: "GOTRUE_RATE_LIMIT_SMS_SENT", config: ConfigKey("auth.rate_limit.sms_sent")
    ) { options, value throws(OptionValueError) in
      let rate = try rate(value, per: "hour")
      options.settings.engine.rateLimits.smsSent = EngineConfiguration.Budget(
        capacity: rate, period: 3_600)
    },
    OptionSpec(
      ["--no-rate-limits"], nil,
      ["no limits at all (requests, code checks, emails, SMS),", "for load tests"],
      section: "rate limits"
    ) { options, _ in options.noRateLimits = true },
  ]

  /// A rate limit: a number of requests per `unit`, as GoTrue reads them (a float).
  private static func rate(_ value: String, per unit: String) throws(OptionValueError) -> Double {
    guard let count = Double(value), count >= 1, count <= 1_000_000 else {
      throw OptionValueError(expected: "a number of requests per \(unit) from 1 to 1000000")
    }
    return count
  }

  /// Whether `byte` may be in a header's name (RFC 9110's `tchar`).
  private static func isHeaderNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }
}
