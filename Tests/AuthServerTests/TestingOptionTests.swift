import Testing

@testable import AuthServer

/// `--allow-clock` and `--test-otp`, on the command line and in their variables.
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

  @Test func aBadFixedCodeIsRefusedWithoutRepeatingIt() {
    let expected =
      "--test-otp takes ADDRESS=CODE, an email address and a 6-digit code, such as "
      + "ada@example.com=123456 (or address:code,address:code)"
    for value in [
      "ada@example.com", "ada@example.com=12345", "ada@example.com=1234567",
      "ada@example.com=12345x", "not-an-address=123456", "=123456", "ada@example.com=987654,",
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
