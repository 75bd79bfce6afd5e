import CommandLineOptions
import GoTrueEngine

/// The options of `authflow serve` that only tests need: moving the clock of a store others
/// share, and fixed emailed codes.
extension ServeOptions {
  /// `--allow-clock` and `--test-otp`, in the order `--help` lists them.
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
        "the code emailed to ADDRESS is always CODE (6 digits),",
        "still single use; repeatable; loopback only; GoTrue's",
        "map form address:code,address:code in the variable",
      ], section: "testing", environment: "GOTRUE_MAILER_TEST_OTP"
    ) { options, value throws(OptionValueError) in
      for (address, code) in try testCodes(value) {
        options.settings.engine.testCodes[address] = code
      }
    },
  ]

  /// The fixed codes of `value`: `ADDRESS=CODE`, or GoTrue's envconfig map
  /// (`address:code,address:code`, as `GOTRUE_SMS_TEST_OTP` is read), addresses normalized.
  /// The error never repeats the value, which holds a code.
  static func testCodes(_ value: String) throws(OptionValueError) -> [(String, String)] {
    let wrong = OptionValueError(
      expected: "ADDRESS=CODE, an email address and a 6-digit code, such as "
        + "ada@example.com=123456 (or address:code,address:code)")
    var codes: [(String, String)] = []
    for entry in value.split(separator: ",", omittingEmptySubsequences: false) {
      guard let separator = entry.lastIndex(where: { $0 == "=" || $0 == ":" }) else {
        throw wrong
      }
      let address = String(entry[..<separator])
      let code = entry[entry.index(after: separator)...]
      guard EmailRules.isWellFormed(address), address.utf8.count <= EmailRules.maximumLength,
        code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) })
      else { throw wrong }
      codes.append((EmailRules.normalized(address), String(code)))
    }
    return codes
  }
}
