import AuthFlow
import AuthFlowFirebase
import Clocks
import Foundation
import SavedSessions
import TestSupport
import Testing

/// Signup, reset by link, email confirmation and resend, as the service does them.
struct AccountFlowTests {
  let transport = ReplayTransport()
  let store = MemorySessionStore()
  let clock = AdjustableClock(fixedAt: epoch)
  let service: FirebaseAuthService

  init() {
    service = FirebaseAuthService(
      client: FirebaseClient(project: testProject, transport: transport), sessions: store,
      clock: clock)
  }

  private let request = SignUpRequest(
    email: "newuser@example.com", password: "NewPassword123!", consentAccepted: true,
    firstName: " Ada ", lastName: "Lovelace", consentAcceptedAt: epoch)

  @Test func signupSignsInSetsTheNameAndSendsTheVerification() async throws {
    let token = idToken(uid: "uid-9", email: "newuser@example.com")
    transport.then(
      signInAnswer(token: token, email: "newuser@example.com", uid: "uid-9"),
      ok(#"{"localId":"uid-9","displayName":"Ada Lovelace","emailVerified":false}"#),
      oobAnswer("newuser@example.com"))
    let result = try await service.signUp(request)

    let expected = AuthSession(
      user: AuthUser(
        id: "uid-9", email: "newuser@example.com", emailVerified: false,
        metadata: ["display_name": "Ada Lovelace"]),
      accessToken: token, refreshToken: "refresh-1", expiresAt: epoch.addingTimeInterval(3_600),
      tokenType: "Bearer")
    #expect(result == .signedInPendingConfirmation(expected))
    #expect(store.load() == expected)
    #expect(transport.calls == ["accounts:signUp", "accounts:update", "accounts:sendOobCode"])
    #expect(transport.body(1)["displayName"] as? String == "Ada Lovelace")
    #expect(transport.body(1)["idToken"] as? String == token)
    #expect(transport.body(2)["requestType"] as? String == "VERIFY_EMAIL")
    #expect(transport.body(2)["idToken"] as? String == token)
  }

  @Test func signupWithoutNamesSkipsTheProfile() async throws {
    transport.then(signInAnswer(), oobAnswer())
    let plain = SignUpRequest(
      email: "test@example.com", password: "pw123456", consentAccepted: true)
    let result = try await service.signUp(plain)
    #expect(result.session?.user.metadata == [:])
    #expect(transport.calls == ["accounts:signUp", "accounts:sendOobCode"])
  }

  @Test func aFailedVerificationEmailDoesNotUndoTheSignupAndIsNotAnnounced() async throws {
    transport.then(signInAnswer(), .failure(.timedOut), googleError("TOO_MANY_ATTEMPTS_TRY_LATER"))
    let result = try await service.signUp(request)
    #expect(result.session?.user.metadata == [:], "the name was not set")
    #expect(store.load() == result.session)
    guard case .signedInVerificationNotSent = result else {
      Issue.record("an email that was not sent is announced: \(result)")
      return
    }
  }

  @Test func aTakenEmailStopsTheSignup() async {
    transport.then(googleError("EMAIL_EXISTS"))
    await #expect(throws: AuthError.duplicateEmail) { try await service.signUp(request) }
    #expect(transport.calls == ["accounts:signUp"])
    #expect(store.load() == nil)
  }

  @Test func resetRequestSucceedsForUnknownAddresses() async throws {
    transport.then(oobAnswer(), googleError("EMAIL_NOT_FOUND"))
    try await service.requestPasswordReset(email: "test@example.com")
    try await service.requestPasswordReset(email: "nobody@example.com")
    #expect(transport.body(1)["requestType"] as? String == "PASSWORD_RESET")
    #expect(transport.body(1)["email"] as? String == "nobody@example.com")
    transport.then(googleError("TOO_MANY_ATTEMPTS_TRY_LATER"))
    #expect(
      await authError { try await service.requestPasswordReset(email: "a@b.co") } == .rateLimited)
  }

  @Test func aResetLinksCodeTellsItsEmailWithoutSpendingIt() async throws {
    #expect(service.resetCodeFormat == .link)
    transport.then(
      ok(
        #"{"kind":"identitytoolkit#ResetPasswordResponse","requestType":"PASSWORD_RESET","email":"Test@Example.com"}"#
      ))
    #expect(try await service.emailForResetCode("oob-1") == "test@example.com")
    #expect(transport.body(0).keys.sorted() == ["oobCode"])

    transport.then(ok(#"{"requestType":"VERIFY_EMAIL","email":"test@example.com"}"#))
    await #expect(throws: AuthError.otpRejected) { try await service.emailForResetCode("oob-2") }
    transport.then(googleError("INVALID_OOB_CODE"))
    await #expect(throws: AuthError.otpRejected) { try await service.emailForResetCode("used") }
  }

  @Test func resetSpendsTheCodeOnTheNewPassword() async throws {
    transport.then(ok(#"{"requestType":"PASSWORD_RESET","email":"test@example.com"}"#))
    try await service.resetPassword(email: "", code: "oob-1", newPassword: "BrandNew123")
    #expect(transport.body(0)["oobCode"] as? String == "oob-1")
    #expect(transport.body(0)["newPassword"] as? String == "BrandNew123")
    transport.then(googleError("EXPIRED_OOB_CODE"), googleError("WEAK_PASSWORD : too short"))
    #expect(
      await authError {
        try await service.resetPassword(email: "", code: "old", newPassword: "BrandNew123")
      } == .otpExpired)
    #expect(
      await authError {
        try await service.resetPassword(email: "", code: "oob-2", newPassword: "short1")
      } == .weakPassword)
  }

  @Test func confirmingRenewsTheSavedSessionSoItIsVerified() async throws {
    transport.then(signInAnswer())
    _ = try await service.signIn(email: "test@example.com", password: "pw")
    #expect(store.load()?.user.emailVerified == false)
    transport.then(
      ok(#"{"localId":"uid-1","email":"test@example.com","emailVerified":true}"#),
      tokenAnswer(token: idToken(verified: true)))
    try await service.confirmEmail(email: "", code: "oob-verify")
    #expect(transport.calls == ["accounts:signInWithPassword", "accounts:update", "token"])
    #expect(transport.body(1).keys.sorted() == ["oobCode"])
    #expect(store.load()?.user.emailVerified == true)
    #expect(store.load()?.refreshToken == "refresh-2")
  }

  @Test func confirmingWithoutASessionOrWithAnotherUsersOnlyConfirms() async throws {
    transport.then(ok(#"{"localId":"uid-1","emailVerified":true}"#))
    try await service.confirmEmail(email: "", code: "oob-verify")
    #expect(transport.calls == ["accounts:update"])

    transport.then(signInAnswer(token: idToken(uid: "uid-2", email: "b@example.com"), uid: "uid-2"))
    _ = try await service.signIn(email: "b@example.com", password: "pw")
    transport.then(ok(#"{"localId":"uid-1","email":"test@example.com","emailVerified":true}"#))
    try await service.confirmEmail(email: "", code: "oob-verify-2")
    #expect(transport.calls.last == "accounts:update")
    #expect(store.load()?.user.emailVerified == false)

    transport.then(googleError("INVALID_OOB_CODE"))
    #expect(
      await authError { try await service.confirmEmail(email: "", code: "used") }
        == .confirmationExpired)
  }

  @Test func resendUsesTheSignedInUsersToken() async throws {
    let token = idToken()
    transport.then(signInAnswer(token: token), oobAnswer())
    _ = try await service.signIn(email: "test@example.com", password: "pw")
    try await service.resendConfirmation(email: "TEST@example.com")
    #expect(transport.calls == ["accounts:signInWithPassword", "accounts:sendOobCode"])
    #expect(transport.body(1)["idToken"] as? String == token)
    #expect(transport.body(1)["requestType"] as? String == "VERIFY_EMAIL")
  }

  @Test func resendForAnyoneElseSendsNothingAndSaysNothing() async throws {
    try await service.resendConfirmation(email: "test@example.com")
    transport.then(signInAnswer())
    _ = try await service.signIn(email: "test@example.com", password: "pw")
    try await service.resendConfirmation(email: "other@example.com")
    #expect(transport.calls == ["accounts:signInWithPassword"])
  }

  @Test func resendRenewsANearlyExpiredOrRevokedToken() async throws {
    transport.then(signInAnswer(), tokenAnswer(token: "renewed-1"), oobAnswer())
    _ = try await service.signIn(email: "test@example.com", password: "pw")
    clock.advance(by: 3_550)
    try await service.resendConfirmation(email: "test@example.com")
    #expect(transport.calls == ["accounts:signInWithPassword", "token", "accounts:sendOobCode"])
    #expect(transport.body(2)["idToken"] as? String == "renewed-1")

    // A password changed elsewhere revokes the ID token: renewed once, then sent.
    transport.then(googleError("TOKEN_EXPIRED"), tokenAnswer(token: "renewed-2"), oobAnswer())
    try await service.resendConfirmation(email: "test@example.com")
    #expect(transport.calls.suffix(3) == ["accounts:sendOobCode", "token", "accounts:sendOobCode"])
    #expect(transport.body(5)["idToken"] as? String == "renewed-2")
  }
}
