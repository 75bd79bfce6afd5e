import Foundation
import GoTrueEngine
import Testing

@testable import AuthServer

/// `authflow serve`'s rate-limit options and GoTrue's variables for them.
struct RateLimitOptionTests {
  @Test func defaultsAreGoTruesWithTheEnginesRequestBudgetsOff() throws {
    let options = try ServeOptions.parse([], environment: [:])
    #expect(options.requestLimits == RequestLimits())
    #expect(options.requestLimits.header == nil)
    #expect(options.requestLimits.otp == 30)
    #expect(options.requestLimits.anonymousUsers == 30)
    #expect(options.requestLimits.tokenRefresh == 150)
    #expect(options.requestLimits.verify == 30)
    #expect(options.requestLimits.mfa == 15)
    let engine = options.settings.engine.rateLimits
    #expect(engine.token == .unlimited && engine.email == .unlimited, "the server limits these")
    #expect(engine.verify == EngineConfiguration.RateLimits().verify, "per account, kept")
    #expect(engine.emailSent == EngineConfiguration.RateLimits().emailSent, "hourly, kept")
    #expect(options.settings.engine.emailInterval == 60)
  }

  @Test func optionsAndVariablesSetEachLimit() throws {
    let options = try ServeOptions.parse(
      ["--rate-limit-header", "X-Client-IP", "--rate-limit-otp", "5", "--rate-limit-mfa", "7"],
      environment: [
        "GOTRUE_RATE_LIMIT_HEADER": "ignored-for-the-option",
        "GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED": "true",
        "GOTRUE_RATE_LIMIT_ANONYMOUS_USERS": "12", "GOTRUE_RATE_LIMIT_TOKEN_REFRESH": "40",
        "GOTRUE_RATE_LIMIT_VERIFY": "9", "GOTRUE_RATE_LIMIT_EMAIL_SENT": "100",
        "GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY": "99",
      ])
    var expected = RequestLimits()
    expected.header = "X-Client-IP"
    expected.trustsForwardedFor = true
    expected.otp = 5
    expected.mfa = 7
    expected.anonymousUsers = 12
    expected.tokenRefresh = 40
    expected.verify = 9
    #expect(options.requestLimits == expected)
    #expect(
      options.settings.engine.rateLimits.verify
        == EngineConfiguration.Budget(capacity: 9, period: 300))
    #expect(
      options.settings.engine.rateLimits.emailSent
        == EngineConfiguration.Budget(capacity: 100, period: 3_600))
  }

  @Test func noRateLimitsWinsOverEveryVariable() throws {
    let options = try ServeOptions.parse(
      ["--no-rate-limits", "--rate-limit-header", "X-Client-IP"],
      environment: ["GOTRUE_RATE_LIMIT_VERIFY": "9", "GOTRUE_SMTP_MAX_FREQUENCY": "5s"])
    #expect(options.requestLimits.isOff)
    #expect(options.settings.engine.rateLimits == .unlimited)
    #expect(options.settings.engine.emailInterval == 0)
  }

  @Test func badValuesSayWhatWouldBeRight() {
    let cases: [([String], [String: String], String)] = [
      (
        ["--rate-limit-header", "X Client"], [:],
        "--rate-limit-header takes a header name such as X-Forwarded-For"
      ),
      (
        [], ["GOTRUE_RATE_LIMIT_OTP": "0"],
        "GOTRUE_RATE_LIMIT_OTP takes a number of requests per 5 minutes from 1 to 1000000"
      ),
      (
        ["--rate-limit-mfa", "x"], [:],
        "--rate-limit-mfa takes a number of requests per minute from 1 to 1000000"
      ),
      (
        [], ["GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED": "yes"],
        "GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED takes true or false, not 'yes'"
      ),
    ]
    for (arguments, environment, text) in cases {
      expectRefusal(arguments, environment, says: text)
    }
  }

  /// `--help` gives each rate-limit option with its default and GoTrue's variable, and says
  /// where serve goes beyond GoTrue.
  @Test func helpDocumentsEachOption() {
    let help = ServeOptions.usage
    let documented: [(String, String, String)] = [
      ("--rate-limit-header NAME", "GOTRUE_RATE_LIMIT_HEADER", "GoTrue does not do"),
      ("--sb-forwarded-for", "GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED", "off by default"),
      ("--rate-limit-otp N", "GOTRUE_RATE_LIMIT_OTP", "default 30"),
      ("--rate-limit-token-refresh N", "GOTRUE_RATE_LIMIT_TOKEN_REFRESH", "default 150"),
      ("--rate-limit-verify N", "GOTRUE_RATE_LIMIT_VERIFY", "default 30"),
      ("--rate-limit-anonymous-users N", "GOTRUE_RATE_LIMIT_ANONYMOUS_USERS", "default 30"),
      ("--rate-limit-mfa N", "GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY", "default 15"),
      ("--rate-limit-email-sent N", "GOTRUE_RATE_LIMIT_EMAIL_SENT", "default 30"),
    ]
    let lines = help.split(separator: "\n").map(String.init)
    for (option, variable, words) in documented {
      // The option's line and its help's further lines, as one text.
      let start = lines.firstIndex { $0.hasPrefix("  " + option + " ") }
      let block = start.map { start in
        ([lines[start]]
          + lines[(start + 1)...].prefix { $0.hasPrefix(String(repeating: " ", count: 32)) })
          .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
      }
      #expect(block?.contains("(env \(variable))") == true, "\(option)")
      #expect(block?.contains(words) == true, "\(option): \(words)")
    }
    #expect(help.contains("--no-rate-limits"))
    #expect(help.split(separator: "\n").allSatisfy { $0.count <= 100 }, "lines fit 100 columns")
  }
}
