import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import SavedSessions
import TestSupport
import Testing

/// The adapter from GoTrue answers to app results.
struct GoTrueAuthServiceTests {
  let api = ScriptedGoTrue()
  let store = MemorySessionStore()
  let clock = AdjustableClock(fixedAt: epoch)
  let service: GoTrueAuthService

  init() {
    service = GoTrueAuthService(api: api, sessions: store, clock: clock)
  }

  @Test func signInConvertsAndSavesTheSession() async throws {
    api.script(.session(goTrueSession()))
    let session = try await service.signIn(email: "test@example.com", password: "pw")
    #expect(session.user == AuthUser(id: "user-1", email: "test@example.com"))
    #expect(session.accessToken == "access-1")
    #expect(session.expiresAt == epoch.addingTimeInterval(3_600))
    #expect(store.load() == session)
  }

  @Test func deletingAnAccountForgetsTheSessionOrSaysTheProjectCannot() async throws {
    api.script(.session(goTrueSession()), .empty)
    let session = try await service.signIn(email: "test@example.com", password: "pw")
    try await service.deleteAccount(session)
    #expect(api.requests.last == .deleteUser(accessToken: "access-1"))
    #expect(store.load() == nil)

    // A Supabase project has no such route: GoTrue answers 404 (or 405).
    for status in [404, 405] {
      api.script(
        .failure(.api(GoTrueAPIError(status: status, code: nil, message: "404 page not found"))))
      await #expect(throws: AuthError.accountDeletionUnavailable) {
        try await service.deleteAccount(session)
      }
    }
  }

  @Test func aLinksTokenHashIsVerifiedWithoutTheEmail() async throws {
    let hash = String(repeating: "ab", count: 28)
    api.script(.session(goTrueSession()), .empty)
    try await service.confirmEmail(email: "", code: hash)
    #expect(api.requests.first == .verifyLink(.signup, tokenHash: hash))
    api.script(.session(goTrueSession()), .empty)
    try await service.confirmEmail(email: "a@b.co", code: "123456")
    #expect(api.requests.contains(.verify(.signup, email: "a@b.co", token: "123456")))
  }

  @Test func sessionWithoutExpiresAtUsesExpiresIn() {
    var wire = goTrueSession()
    wire.expiresAt = nil
    #expect(AuthSession(goTrue: wire, now: epoch).expiresAt == epoch.addingTimeInterval(3_600))
  }

  @Test func signUpOutcomes() async throws {
    api.script(
      .signUp(.session(goTrueSession())), .signUp(.user(goTrueUser(identities: 1))),
      .signUp(.user(goTrueUser(identities: 0))))
    let request = SignUpRequest(
      email: "a@b.co", password: "pw", consentAccepted: true, firstName: "Ada", lastName: "L")

    guard case .signedIn = try await service.signUp(request) else {
      Issue.record("autoconfirm signs in")
      return
    }
    #expect(try await service.signUp(request) == .confirmationRequired)
    await #expect(throws: AuthError.duplicateEmail) { try await service.signUp(request) }
    #expect(
      api.requests.first
        == .signUp(
          email: "a@b.co", data: ["first_name": .string("Ada"), "last_name": .string("L")]))
  }

  @Test func aRepeatedSignupOfAnUnconfirmedAddressSaysTheFirstPasswordStays() async throws {
    var earlier = goTrueUser(identities: 1)
    earlier.createdAt = epoch
    earlier.confirmationSentAt = epoch.addingTimeInterval(120)
    api.script(.signUp(.user(earlier)))
    let request = SignUpRequest(email: "a@b.co", password: "pw2", consentAccepted: true)
    #expect(try await service.signUp(request) == .confirmationResentToExistingAccount)
  }

  @Test func resetVerifiesSetsThePasswordAndEndsTheRecoverySession() async throws {
    api.script(.session(goTrueSession("recovery")), .user(goTrueUser()), .empty)
    try await service.resetPassword(
      email: "test@example.com", code: "123456", newPassword: "New12345")
    #expect(
      api.requests == [
        .verify(.recovery, email: "test@example.com", token: "123456"),
        .updatePassword(accessToken: "recovery", nonce: nil),
        .logout(accessToken: "recovery", .local),
      ])
    #expect(store.load() == nil, "the user signs in with the new password next")
  }

  @Test func rejectedNewPasswordCanBeRetriedWithoutASecondCode() async throws {
    api.script(
      .session(goTrueSession("recovery")), .failure(apiError(422, .samePassword)),
      .user(goTrueUser()), .empty)
    let first = await authError {
      try await service.resetPassword(
        email: "test@example.com", code: "123456", newPassword: "Old12345")
    }
    #expect(first == .samePassword)
    try await service.resetPassword(
      email: "test@example.com", code: "123456", newPassword: "New12345")
    #expect(api.requests.filter { if case .verify = $0 { true } else { false } }.count == 1)
  }

  @Test func wrongResetCodeIsMappedForRecovery() async {
    api.script(.failure(apiError(403, .otpExpired)))
    let error = await authError {
      try await service.resetPassword(email: "a@b.co", code: "000000", newPassword: "New12345")
    }
    #expect(error == .otpExpired)
  }

  @Test func confirmingEndsTheSessionTheConfirmationGives() async throws {
    api.script(.session(goTrueSession("confirm")), .empty)
    try await service.confirmEmail(email: "a@b.co", code: "123456")
    #expect(
      api.requests == [
        .verify(.signup, email: "a@b.co", token: "123456"), .logout(accessToken: "confirm", .local),
      ])
    api.script(.failure(apiError(403, .otpExpired)))
    #expect(
      await authError { try await service.confirmEmail(email: "a@b.co", code: "1") }
        == .confirmationExpired)
  }

  @Test func resendAndRecoverPassThrough() async throws {
    api.script(.empty, .empty, .failure(apiError(429, .overEmailSendRateLimit)))
    try await service.resendConfirmation(email: "a@b.co")
    try await service.requestPasswordReset(email: "a@b.co")
    #expect(
      await authError { try await service.requestPasswordReset(email: "a@b.co") } == .rateLimited)
    #expect(api.requests.prefix(2) == [.resend(.signup, "a@b.co"), .recover("a@b.co")])
  }

  @Test func refreshSavesTheNewSessionAndForgetsARevokedOne() async throws {
    let old = AuthSession(goTrue: goTrueSession(), now: epoch)
    store.save(old)
    api.script(.session(goTrueSession("access-2", refresh: "refresh-2")))
    let fresh = try await service.refresh(old)
    #expect(fresh.refreshToken == "refresh-2")
    #expect(store.load() == fresh)

    api.script(.failure(apiError(400, .refreshTokenAlreadyUsed)))
    await #expect(throws: AuthError.sessionExpired) { try await service.refresh(fresh) }
    #expect(store.load() == nil)
  }

  @Test func refreshFailingForNetworkKeepsTheSession() async {
    let old = AuthSession(goTrue: goTrueSession(), now: epoch)
    store.save(old)
    api.script(.failure(.transport("offline")))
    await #expect(throws: AuthError.networkUnavailable) { try await service.refresh(old) }
    #expect(store.load() == old)
  }

  @Test func restoreWithNothingStored() async throws {
    #expect(try await service.restoreSession() == nil)
    #expect(api.requests.isEmpty)
  }

  @Test func restoreChecksAValidSessionWithTheBackend() async throws {
    store.save(AuthSession(goTrue: goTrueSession(), now: epoch))
    var confirmed = goTrueUser()
    confirmed.emailConfirmedAt = epoch
    api.script(.user(confirmed))
    let restored = try await service.restoreSession()
    #expect(restored?.user.emailConfirmedAt == epoch)
    #expect(api.requests == [.user(accessToken: "access-1")])
  }

  @Test func restoreRefreshesASessionAboutToExpire() async throws {
    store.save(AuthSession(goTrue: goTrueSession(), now: epoch))
    clock.advance(by: 3_600 - 29)
    api.script(
      .session(
        goTrueSession(
          "access-2", refresh: "refresh-2", expiresAt: clock.now.addingTimeInterval(3_600))))
    let restored = try await service.restoreSession()
    #expect(restored?.accessToken == "access-2")
    #expect(api.requests == [.refresh("refresh-1")])
  }

  @Test func restoreOfflineKeepsTheStoredSession() async throws {
    let stored = AuthSession(goTrue: goTrueSession(), now: epoch)
    store.save(stored)
    api.script(.failure(.transport("unreachable")))
    #expect(try await service.restoreSession() == stored)
  }

  @Test func restoreOfARevokedSessionTriesOneRefreshThenForgets() async {
    store.save(AuthSession(goTrue: goTrueSession(), now: epoch))
    api.script(
      .failure(apiError(403, .sessionNotFound)), .failure(apiError(400, .refreshTokenNotFound)))
    await #expect(throws: AuthError.sessionExpired) { try await service.restoreSession() }
    #expect(store.load() == nil)
  }

  @Test func restoreSurfacesOtherErrors() async {
    store.save(AuthSession(goTrue: goTrueSession(), now: epoch))
    api.script(.failure(apiError(500, .unexpectedFailure)))
    await #expect(throws: AuthError.serverError) { try await service.restoreSession() }
  }

  @Test func signOutForgetsLocallyWhateverTheBackendSays() async throws {
    let session = AuthSession(goTrue: goTrueSession(), now: epoch)
    for answer: ScriptedGoTrue.Answer in [.empty, .failure(apiError(403, .sessionNotFound))] {
      store.save(session)
      api.script(answer)
      try await service.signOut(session)
      #expect(store.load() == nil)
    }
    store.save(session)
    api.script(.failure(.transport("offline")))
    await #expect(throws: AuthError.networkUnavailable) { try await service.signOut(session) }
    #expect(store.load() == nil)
    #expect(api.requests.allSatisfy { $0 == .logout(accessToken: "access-1", .local) })
  }
}
