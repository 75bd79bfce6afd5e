import AuthFlow
import AuthFlowGoTrue
import Clocks
import GoTrue
import GoTrueEngine
import SavedSessions
import TestSupport
import Testing

/// The app's email rule and the engine's (GoTrue's) agree, and an address the server refuses
/// anyway reads as the form's own check.
struct EmailAgreementTests {
  /// Addresses and whether GoTrue takes them (checkmail's format, at most 255 bytes).
  static let table: [(String, Bool)] = [
    ("test@example.com", true),
    ("first.last+tag@sub.example.co.uk", true),
    ("o'brien+{x}=y@example.com", true),
    (".dots..@example.com", true),
    ("jos\u{E9}@example.com", false),
    ("ivan@\u{43F}\u{43E}\u{447}\u{442}\u{430}.\u{440}\u{444}", false),  // ivan@почта.рф
    ("ivan@xn--80a1acny.xn--p1ai", true),  // its DNS spelling
    ("\"quoted\"@example.com", false),
    ("\"a b\"@example.com", false),
    ("test@example.com.", false),
    ("test@.example.com", false),
    ("test@example..com", false),
    ("test@-example.com", false),
    ("test@example-.com", false),
    ("test@exa_mple.com", false),
    ("test@[127.0.0.1]", false),
    ("a@b@example.com", false),
    ("te st@example.com", false),
    (
      String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 63) + "."
        + String(repeating: "c", count: 63) + "." + String(repeating: "d", count: 62), true
    ),
    (
      String(repeating: "a", count: 65) + "@" + String(repeating: "b", count: 63) + "."
        + String(repeating: "c", count: 63) + "." + String(repeating: "d", count: 62), false
    ),
    ("a@" + String(repeating: "b", count: 64) + ".com", false),
    // GoTrue takes a domain without a dot; the seeds ask for one ("must contain @ and .").
    ("a@localhost", true),
  ]

  @Test(arguments: table)
  func theAppAcceptsAnAddressOnlyWhenTheEngineDoes(email: String, gotrue: Bool) {
    let engine = (try? EmailRules.validated(email)) != nil
    let app = AuthValidation.checkEmail(email) == nil
    #expect(engine == gotrue, "engine on \(email)")
    let domainHasDot = email.split(separator: "@").last?.contains(".") ?? false
    #expect(app == (gotrue && domainHasDot), "app on \(email)")
  }

  @Test(arguments: [
    ("Unable to validate email address: invalid format", GoTrueOperation.signUp),
    ("An email address is too long", .recover),
    ("Unable to validate email address: invalid format", .signIn),
  ])
  func gotruesRefusalOfAnAddressReadsAsTheFormsCheck(message: String, operation: GoTrueOperation) {
    let error = AuthError(apiError(400, .validationFailed, message), during: operation)
    #expect(error == .emailRejected)
    #expect(error.message == "Invalid email format")
    #expect(AuthError(apiError(400, .emailAddressInvalid), during: operation) == .emailRejected)
    #expect(
      AuthError(apiError(400, .validationFailed, "missing email or phone"), during: operation)
        == .unknown)
  }

  @Test func theEnginesRefusalOfAnAddressReadsAsTheFormsCheck() async throws {
    let service = GoTrueAuthService(
      api: try makeEngine(), sessions: MemorySessionStore(),
      clock: AdjustableClock(fixedAt: testEpoch))
    let address = "jos\u{E9}@example.com"
    await #expect(throws: AuthError.emailRejected) {
      try await service.signUp(
        SignUpRequest(email: address, password: "Password123", consentAccepted: true))
    }
    await #expect(throws: AuthError.emailRejected) {
      try await service.requestPasswordReset(email: address)
    }
  }
}
