import AuthFlow
import AuthFlowGoTrue
import Clocks
import GoTrue
import SavedSessions
import TestSupport
import Testing

/// Links that carry a token hash and no email (seed 004's shapes), over a scripted GoTrue.
struct LinkTokenTests {
  let api = ScriptedGoTrue()
  let service: GoTrueAuthService
  let hash = String(repeating: "3f", count: 28)

  init() {
    service = GoTrueAuthService(
      api: api, sessions: MemorySessionStore(), clock: AdjustableClock(fixedAt: epoch))
  }

  @Test func aRecoveryLinksTokenTellsItsAccountAndItsSessionSetsThePassword() async throws {
    api.script(.session(goTrueSession()), .user(goTrueUser()), .empty)
    #expect(try await service.emailForResetCode(hash) == "test@example.com")
    try await service.resetPassword(email: "test@example.com", code: hash, newPassword: "New12345")
    // One verification: the session it gave sets the password, as verifyOtp then updateUser.
    #expect(
      api.requests == [
        .verifyLink(.recovery, tokenHash: hash),
        .updatePassword(accessToken: "access-1", nonce: nil),
        .logout(accessToken: "access-1", .local),
      ])
  }

  @Test func aBareCodeWithoutAnEmailIsNoLinkTheBackendCanPlace() async throws {
    #expect(try await service.emailForResetCode("123456") == nil)
    await #expect(throws: AuthError.linkInvalid) {
      try await service.confirmEmail(email: "", code: "123456")
    }
    await #expect(throws: AuthError.linkInvalid) {
      try await service.resetPassword(email: "", code: "123456", newPassword: "New12345")
    }
    #expect(api.requests.isEmpty)
  }

  @Test func aTokenGoTrueDoesNotKnowAsksForTheLatestLinkNotACode() async throws {
    // GoTrue answers "Email link is invalid or has expired" as otp_expired, reason untold.
    let untold = GoTrueFailure.api(
      GoTrueAPIError(
        status: 403, code: .otpExpired, message: "Email link is invalid or has expired",
        otpReasonUnknown: true))
    api.script(.failure(untold))
    await #expect(throws: AuthError.linkInvalid) { try await service.emailForResetCode(hash) }
    // authflow's server says which: unknown, used or expired.
    api.script(.failure(apiError(403, .otpInvalid)), .failure(apiError(403, .otpAlreadyUsed)))
    await #expect(throws: AuthError.linkInvalid) { try await service.emailForResetCode(hash) }
    await #expect(throws: AuthError.otpAlreadyUsed) { try await service.emailForResetCode(hash) }
    api.script(.failure(apiError(403, .otpInvalid)), .failure(apiError(403, .otpExpired)))
    await #expect(throws: AuthError.linkInvalid) {
      try await service.confirmEmail(email: "", code: hash)
    }
    await #expect(throws: AuthError.confirmationExpired) {
      try await service.confirmEmail(email: "", code: hash)
    }
    #expect(AuthError.linkInvalid.message.contains("Open the link from your latest email"))
  }
}
