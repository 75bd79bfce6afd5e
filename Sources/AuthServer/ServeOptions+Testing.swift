import CommandLineOptions
import GoTrueEngine

/// The options of `authflow serve` that only tests need: moving the clock of a store others
/// share, and fixed codes emailed or texted.
extension ServeOptions {
  /// `--allow-clock`, `--test-otp` and `--sms-test-otp`, in the order `--help` lists them.
  static let testingOptions: [OptionSpec<ServeOptions>] = [
    OptionSpec(
      ["--allow-clock"], nil,
      [
        "let POST /authflow/v1/clock move the clock of a file store",
        "(a :memory: store's moves anyway)",
      ], section: "testing", environment: "AUTHFLOW_ALLOW_CLOCK"
    ) { options, _ in options.allowsClock = true },
    OptionSpec(
      ["--test-otp"], "ADDRESS=CODE",
      [
        "the code emailed to ADDRESS (or texted to a phone number,",
        "+E.164) is always CODE (6 digits; 6 to 10 for a phone),",
        "still single use; repeatable; loopback only; GoTrue's",
        "map form address:code,address:code in the variable",
      ], section: "testing", environment: "GOTRUE_MAILER_TEST_OTP"
    ) { options, value throws(OptionValueError) in
      for (address, code) in try testCodes(value) {
        options.settings.engine.testCodes[address] = code
      }
    },
    OptionSpec(
      ["--sms-test-otp"], "PHONE=CODE",
      [
        "--test-otp for phone numbers alone, as GoTrue's sms.test_otp",
        "(the variable's map form phone:code,phone:code)",
      ], section: "testing", environment: "GOTRUE_SMS_TEST_OTP",
      config: ConfigKey("auth.sms.test_otp", .list)
    ) { options, value throws(OptionValueError) in
      for (phone, code) in try testCodes(value, phonesOnly: true) {
        options.settings.engine.testCodes[phone] = code
      }
    },
  ]

  /// The fixed codes of `value`: `ADDRESS=CODE`, or GoTrue's envconfig map
  /// (`address:code,address:code`, as `GOTRUE_SMS_TEST_OTP` is read), email addresses
  /// normalized, phone numbers as GoTrue keeps them (E.164 digits without the `+`). The error
  /// never repeats the value, which holds a code.
  static func testCodes(_ value: String, phonesOnly: Bool = false) throws(OptionValueError)
    -> [(String, String)]
  {
    let wrong = OptionValueError(
      expected: phonesOnly
        ? "PHONE=CODE, an E.164 number and a code of 6 to 10 digits, such as "
          + "+15555550100=123456 (or phone:code,phone:code)"
        : "ADDRESS=CODE, an email address and a 6-digit code, such as "
          + "ada@example.com=123456, or a phone number and a code of 6 to 10 digits, such as "
          + "+15555550100=123456 (or address:code,address:code)")
    var codes: [(String, String)] = []
    for entry in value.split(separator: ",", omittingEmptySubsequences: false) {
      guard let separator = entry.lastIndex(where: { $0 == "=" || $0 == ":" }) else {
        throw wrong
      }
      let address = String(entry[..<separator])
      let code = String(entry[entry.index(after: separator)...])
      if !phonesOnly, EmailRules.isWellFormed(address),
        address.utf8.count <= EmailRules.maximumLength, CodeRules.isWellFormed(code)
      {
        codes.append((EmailRules.normalized(address), code))
      } else if let phone = try? PhoneRules.normalized(address),
        PhoneRules.isWellFormedCode(code)
      {
        codes.append((phone, code))
      } else {
        throw wrong
      }
    }
    return codes
  }
}
