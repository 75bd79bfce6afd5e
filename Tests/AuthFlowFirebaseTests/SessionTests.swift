import AuthFlow
import AuthFlowFirebase
import Clocks
import Foundation
import SavedSessions
import TestSupport
import Testing

/// Sign-in, renewal, restore, sign-out and the ID token for the app's API.
struct SessionTests {
  let transport = ReplayTransport()
  let store = MemorySessionStore()
  let clock = AdjustableClock(fixedAt: epoch)
  let service: FirebaseAuthService

  init() {
    service = FirebaseAuthService(
      client: FirebaseClient(project: testProject, transport: transport), sessions: store,
      clock: clock)
  }

  private func signIn(token: String = idToken()) async throws -> AuthSession {
    transport.then(signInAnswer(token: token))
    return try await service.signIn(email: "test@example.com", password: "TestPassword123!")
  }

  @Test func signInReadsTheUserFromTheTokensClaims() async throws {
    let token = idToken(uid: "uid-7", email: "ada@example.com", verified: true, name: "Ada L")
    let session = try await signIn(token: token)
    #expect(
      session
        == AuthSession(
          user: AuthUser(
            id: "uid-7", email: "ada@example.com", emailVerified: true,
            metadata: ["display_name": "Ada L"]),
          accessToken: token, refreshToken: "refresh-1",
          expiresAt: epoch.addingTimeInterval(3_600), expiresIn: 3_600, tokenType: "Bearer"))
    #expect(session.user.emailConfirmedAt == nil, "Firebase does not say when")
    #expect(store.load() == session)
  }

  @Test func aTokenThatIsNotAJWTFallsBackOnTheAnswer() async throws {
    let session = try await signIn(token: "opaque")
    #expect(session.user == AuthUser(id: "uid-1", email: "test@example.com", emailVerified: false))
  }

  @Test func wrongPasswordSavesNothing() async {
    transport.then(googleError("INVALID_LOGIN_CREDENTIALS"))
    #expect(
      await authError { try await service.signIn(email: "a@b.co", password: "x") }
        == .invalidCredentials)
    #expect(store.load() == nil)
  }

  @Test func refreshCarriesTheCurrentVerification() async throws {
    let session = try await signIn()
    clock.advance(by: 600)
    let verified = idToken(verified: true, issuedAt: clock.now)
    transport.then(tokenAnswer(token: verified, refreshToken: "refresh-2"))
    let renewed = try await service.refresh(session)
    #expect(renewed.user.emailVerified)
    #expect(renewed.accessToken == verified)
    #expect(renewed.refreshToken == "refresh-2")
    #expect(renewed.expiresAt == clock.now.addingTimeInterval(3_600))
    #expect(store.load() == renewed)
    let form = String(decoding: transport.requests[1].body ?? Data(), as: UTF8.self)
    #expect(form == "grant_type=refresh_token&refresh_token=refresh-1")
  }

  @Test func reloadingTheUserAsksLookupAndKeepsTheSession() async throws {
    let session = try await signIn()
    transport.then(
      ok(#"{"users":[{"localId":"uid-1","email":"test@example.com","emailVerified":true}]}"#))
    let user = try await service.reloadUser(session)
    #expect(user == AuthUser(id: "uid-1", email: "test@example.com", emailVerified: true))
    #expect(transport.operations.last == "accounts:lookup")
    #expect(transport.body(1)["idToken"] as? String == session.accessToken)
    #expect(store.load() == session, "the session is not renewed by a reload")

    transport.then(ok(#"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#))
    await #expect(throws: AuthError.sessionExpired) { try await service.reloadUser(session) }
    transport.then(googleError("USER_DISABLED"))
    await #expect(throws: AuthError.sessionExpired) { try await service.reloadUser(session) }
  }

  @Test func aRefusedRefreshTokenForgetsTheSession() async throws {
    let session = try await signIn()
    transport.then(.failure(.timedOut))
    await #expect(throws: AuthError.networkUnavailable) { try await service.refresh(session) }
    #expect(store.load() == session, "kept while offline")
    transport.then(googleError("INVALID_REFRESH_TOKEN"))
    await #expect(throws: AuthError.sessionExpired) { try await service.refresh(session) }
    #expect(store.load() == nil)
  }

  @Test func restoreUsesAFreshSessionAsItIs() async throws {
    #expect(try await service.restoreSession() == nil)
    let session = try await signIn()
    clock.advance(by: 3_000)
    #expect(try await service.restoreSession() == session)
    #expect(transport.calls == ["accounts:signInWithPassword"])
  }

  @Test func restoreRenewsASessionWithinAMinuteOfExpiry() async throws {
    _ = try await signIn()
    clock.advance(by: 3_545)
    transport.then(tokenAnswer(token: idToken(verified: true, issuedAt: clock.now)))
    let restored = try await service.restoreSession()
    #expect(restored?.refreshToken == "refresh-2")
    #expect(restored?.user.emailVerified == true)
    #expect(store.load() == restored)
  }

  @Test func restoreOfflineKeepsAnUnexpiredSessionOnly() async throws {
    let session = try await signIn()
    clock.advance(by: 3_570)
    transport.then(.failure(.unreachable("offline")))
    #expect(try await service.restoreSession() == session)
    clock.advance(by: 60)
    transport.then(.failure(.unreachable("offline")))
    await #expect(throws: AuthError.networkUnavailable) { try await service.restoreSession() }
    #expect(store.load() == session)
  }

  @Test func signOutIsLocal() async throws {
    let session = try await signIn()
    try await service.signOut(session)
    #expect(store.load() == nil)
    #expect(transport.calls == ["accounts:signInWithPassword"], "Firebase has no sign-out call")
  }

  @Test func currentIDTokenRenewsWithinFiveMinutesOfExpiry() async throws {
    await #expect(throws: AuthError.sessionExpired) { try await service.currentIDToken() }
    let session = try await signIn()
    clock.advance(by: 3_000)
    #expect(try await service.currentIDToken() == session.accessToken)
    #expect(transport.calls.count == 1)

    clock.advance(by: 301)
    transport.then(tokenAnswer(token: "renewed-1"))
    #expect(try await service.currentIDToken() == "renewed-1")
    #expect(transport.calls.last == "token")
    #expect(store.load()?.accessToken == "renewed-1")

    transport.then(tokenAnswer(token: "forced-1", refreshToken: "refresh-3"))
    #expect(try await service.currentIDToken(forcingRefresh: true) == "forced-1")
    #expect(transport.calls.count == 3)
  }

  @Test func deletingTheAccountForgetsTheSession() async throws {
    let session = try await signIn()
    transport.then(googleError("CREDENTIAL_TOO_OLD_LOGIN_AGAIN"))
    await #expect(throws: AuthError.sessionExpired) { try await service.deleteAccount(session) }
    #expect(store.load() == session)
    transport.then(ok(#"{"kind":"identitytoolkit#DeleteAccountResponse"}"#))
    try await service.deleteAccount(session)
    #expect(transport.calls.last == "accounts:delete")
    #expect(transport.body(2)["idToken"] as? String == session.accessToken)
    #expect(store.load() == nil)
  }
}
