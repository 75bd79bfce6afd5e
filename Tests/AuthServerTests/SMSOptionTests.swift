import GoTrueEngine
import Testing

@testable import AuthServer

/// serve's SMS settings, with GoTrue's variables and defaults.
struct SMSOptionTests {
  @Test func theDefaultsAreGoTrues() throws {
    let engine = try ServeOptions.parse([], environment: [:]).settings.engine
    #expect(!engine.smsAutoconfirm && engine.smsCodeLifetime == 60 && engine.smsCodeLength == 6)
    #expect(engine.smsInterval == 60 && engine.smsTemplate == "Your code is {{ .Code }}")
    #expect(engine.rateLimits.smsSent == EngineConfiguration.Budget(capacity: 30, period: 3_600))
  }

  @Test func theOptionsAndTheirVariablesSetThem() throws {
    let given = try ServeOptions.parse(
      [
        "--sms-autoconfirm", "--sms-otp-exp", "300", "--sms-otp-length", "8",
        "--sms-max-frequency", "5s", "--sms-template", "{{.Code}} is your code",
        "--rate-limit-sms-sent", "100",
      ], environment: [:]
    ).settings.engine
    #expect(given.smsAutoconfirm && given.smsCodeLifetime == 300 && given.smsCodeLength == 8)
    #expect(given.smsInterval == 5 && given.smsTemplate == "{{.Code}} is your code")
    #expect(given.rateLimits.smsSent.capacity == 100)
    let variables = try ServeOptions.parse(
      [],
      environment: [
        "GOTRUE_SMS_AUTOCONFIRM": "true", "GOTRUE_SMS_OTP_EXP": "120",
        "GOTRUE_SMS_OTP_LENGTH": "10", "GOTRUE_SMS_MAX_FREQUENCY": "1m",
        "GOTRUE_SMS_TEMPLATE": "Code {{ .Code }}", "GOTRUE_RATE_LIMIT_SMS_SENT": "5",
      ]
    ).settings.engine
    #expect(variables.smsAutoconfirm && variables.smsCodeLifetime == 120)
    #expect(variables.smsCodeLength == 10 && variables.smsInterval == 60)
    #expect(
      variables.smsTemplate == "Code {{ .Code }}" && variables.rateLimits.smsSent.capacity == 5)
  }

  @Test func badValuesAreRefused() {
    expectRefusal(
      ["--sms-otp-length", "5"], [:],
      says: "--sms-otp-length takes a number of digits from 6 to 10")
    expectRefusal(["--sms-otp-exp", "0"], [:], says: "--sms-otp-exp takes seconds from 1 to 86400")
    expectRefusal(
      ["--sms-template", "Your code"], [:],
      says: "--sms-template takes words holding {{ .Code }}, such as \"Your code is {{ .Code }}\"")
  }

  @Test func noRateLimitsLeavesNoWaitBetweenTexts() throws {
    let engine = try ServeOptions.parse(["--no-rate-limits"], environment: [:]).settings.engine
    #expect(engine.smsInterval == 0 && !engine.rateLimits.smsSent.isLimited)
  }
}
