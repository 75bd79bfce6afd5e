import Testing

@testable import AuthServer

/// GoTrue's variables serve does not act on are named in one warning line at start, as the
/// keys of a project's file are; the ones its options read, and switches set off, are not.
struct IgnoredVariablesTests {
  @Test func eachIgnoredVariableIsNamedOnceInOneLineWithoutItsValue() {
    let environment = [
      "GOTRUE_SAML_ENABLED": "true", "GOTRUE_EXTERNAL_GOOGLE_ENABLED": "true",
      "GOTRUE_EXTERNAL_GOOGLE_SECRET": "a-secret-value", "GOTRUE_SITE_URL": "http://localhost:3000",
      "GOTRUE_URI_ALLOW_LIST": "myapp://auth/callback", "PATH": "/usr/bin", "HOME": "/root",
    ]
    let warning = IgnoredVariables.warning(environment)
    #expect(
      warning
        == "environment: authflow serve does not support GOTRUE_EXTERNAL_GOOGLE_ENABLED, "
        + "GOTRUE_EXTERNAL_GOOGLE_SECRET, GOTRUE_SAML_ENABLED; ignored")
    #expect(warning?.contains("a-secret-value") == false)
  }

  @Test func whatServeDoesAnywayIsNotNamed() {
    let environment = [
      // Off, with the rest of its group.
      "GOTRUE_SAML_ENABLED": "false", "GOTRUE_SAML_PRIVATE_KEY": "key",
      "GOTRUE_EXTERNAL_GOOGLE_ENABLED": "0", "GOTRUE_EXTERNAL_GOOGLE_CLIENT_ID": "id",
      // What serve always does; set but empty, as if unset.
      "GOTRUE_JWT_AUD": "authenticated", "GOTRUE_DB_DRIVER": "postgres",
      "GOTRUE_MAILER_OTP_LENGTH": "6", "GOTRUE_SMTP_HOST": "",
    ]
    #expect(IgnoredVariables.warning(environment) == nil)
    #expect(
      IgnoredVariables.names(in: ["GOTRUE_JWT_AUD": "other", "GOTRUE_MAILER_OTP_LENGTH": "8"])
        == ["GOTRUE_JWT_AUD", "GOTRUE_MAILER_OTP_LENGTH"])
  }

  @Test func everyVariableAnOptionReadsIsHonoured() {
    let read = ServeOptions.allOptions.compactMap(\.environment).filter { $0.hasPrefix("GOTRUE_") }
    #expect(read.contains("GOTRUE_URI_ALLOW_LIST"))
    #expect(
      IgnoredVariables.names(in: Dictionary(uniqueKeysWithValues: read.map { ($0, "1") })) == [])
  }
}
