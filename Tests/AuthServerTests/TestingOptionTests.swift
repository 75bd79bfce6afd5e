import Testing

@testable import AuthServer

/// `--allow-clock`, `--test-otp` and `--sms-test-otp`, on the command line and in their
/// variables.
struct TestingOptionTests {
  @Test func theClockMovesOnlyWhereAllowed() throws {
    #expect(try !ServeOptions.parse([], environment: [:]).allowsClock)
    #expect(try ServeOptions.parse(["--allow-clock"], environment: [:]).allowsClock)
    #expect(try ServeOptions.parse([], environment: ["AUTHFLOW_ALLOW_CLOCK": "true"]).allowsClock)
  }

  @Test func fixedCodesComeFromTheOptionAndGoTruesMapVariable() throws {
    let given = try ServeOptions.parse(
      ["--test-otp", "Ada@Example.com=123456", "--test-otp=bob@example.com=654321"],
      environment: [:])
    #expect(
      given.settings.engine.testCodes == ["ada@example.com": "123456", "bob@example.com": "654321"])
    let variable = try ServeOptions.parse(
      [], environment: ["GOTRUE_MAILER_TEST_OTP": "ada@example.com:111111,eve@example.com:222222"])
    #expect(
      variable.settings.engine.testCodes == [
        "ada@example.com": "111111", "eve@example.com": "222222",
      ])
    #expect(try ServeOptions.parse([], environment: [:]).settings.engine.testCodes.isEmpty)
  }

  @Test func phoneNumbersGetFixedCodesAsGoTruesSMSTestOTPFixesThem() throws {
    let given = try ServeOptions.parse(
      ["--test-otp", "+1 555 555 0100=1234567890", "--sms-test-otp", "15555550101=654321"],
      environment: [:])
    #expect(
      given.settings.engine.testCodes == ["15555550100": "1234567890", "15555550101": "654321"])
    let variable = try ServeOptions.parse(
      ["--test-otp", "ada@example.com=123456"],
      environment: ["GOTRUE_SMS_TEST_OTP": "+15555550102:111111,15555550103:222222"])
    #expect(
      variable.settings.engine.testCodes == [
        "ada@example.com": "123456", "15555550102": "111111", "15555550103": "222222",
      ])
    let phoneExpected =
      "--sms-test-otp takes PHONE=CODE, an E.164 number and a code of 6 to 10 digits, such as "
      + "+15555550100=123456 (or phone:code,phone:code)"
    for value in ["ada@example.com=123456", "0123=123456", "+15555550100=12345"] {
      expectRefusal(["--sms-test-otp", value], [:], says: phoneExpected)
    }
  }

  @Test func aBadFixedCodeIsRefusedWithoutRepeatingIt() {
    let expected =
      "--test-otp takes ADDRESS=CODE, an email address and a 6-digit code, such as "
      + "ada@example.com=123456, or a phone number and a code of 6 to 10 digits, such as "
      + "+15555550100=123456 (or address:code,address:code)"
    for value in [
      "ada@example.com", "ada@example.com=12345", "ada@example.com=1234567",
      "ada@example.com=12345x", "not-an-address=123456", "=123456", "ada@example.com=987654,",
      "+15555550100=12345", "+15555550100=12345678901",
    ] {
      expectRefusal(["--test-otp", value], [:], says: expected)
    }
    expectRefusal(
      [], ["GOTRUE_MAILER_TEST_OTP": "ada@example.com:98765"],
      says: expected.replacing("--test-otp", with: "GOTRUE_MAILER_TEST_OTP"))
  }

  @Test func fixedCodesRefuseToListenBeyondLoopback() {
    for host in ["0.0.0.0", "::", "192.168.1.20"] {
      let status = ServeMain.run(
        arguments: [
          "--store", ":memory:", "--port", "0", "--host", host, "--test-otp",
          "ada@example.com=123456",
        ], environment: [:], version: "test")
      #expect(status == 2, "\(host)")
    }
    #expect(ServeMain.isLoopbackHost("127.0.0.1") && ServeMain.isLoopbackHost("::1"))
  }
}
