import AuthFlow
import AuthFlowFirebase
import Clocks
import Foundation
import SavedSessions
import TestSupport
import Testing

/// A signed-in user's new password on Firebase (`accounts:update`), and the session's shape.
struct PasswordChangeTests {
  let transport = ReplayTransport()
  let store = MemorySessionStore()
  let clock = AdjustableClock(fixedAt: epoch)
  let service: FirebaseAuthService

  init() {
    service = FirebaseAuthService(
      client: FirebaseClient(project: testProject, transport: transport), sessions: store,
      clock: clock)
  }

  private func signIn() async throws -> AuthSession {
    transport.then(signInAnswer())
    return try await service.signIn(email: "test@example.com", password: "TestPassword123!")
  }

  @Test func theNewTokensOfTheChangeBecomeTheSession() async throws {
    let session = try await signIn()
    let renewed = idToken(issuedAt: clock.now)
    transport.then(
      ok(
        #"{"kind":"identitytoolkit#SetAccountInfoResponse","localId":"uid-1","#
          + #""email":"test@example.com","idToken":"\#(renewed)","refreshToken":"refresh-9","#
          + #""expiresIn":"1800"}"#))
    let result = try await service.updatePassword(session, newPassword: "BrandNew123", nonce: nil)
    let changed = try #require(result.session)
    #expect(changed.accessToken == renewed)
    #expect(changed.refreshToken == "refresh-9")
    #expect(changed.expiresIn == 1_800)
    #expect(changed.tokenType == "Bearer")
    #expect(store.load() == changed)
    let body = String(decoding: try #require(transport.requests.last?.body), as: UTF8.self)
    #expect(body.contains(#""password":"BrandNew123""#))
    #expect(body.contains(#""idToken":"#))
  }

  @Test func aSignInTooLongAgoEndsTheSession() async throws {
    let session = try await signIn()
    transport.then(googleError("CREDENTIAL_TOO_OLD_LOGIN_AGAIN"))
    let error = await authError {
      try await service.updatePassword(session, newPassword: "BrandNew123", nonce: nil)
    }
    #expect(error == .sessionExpired)
    #expect(store.load() == nil)
  }

  @Test func aRefusedRenewalOfAnExpiredTokenEndsTheSession() async throws {
    let session = try await signIn()
    clock.advance(by: 3_600)
    transport.then(googleError("TOKEN_EXPIRED"))
    let error = await authError { try await service.refresh(session) }
    #expect(error == .sessionExpired)
    #expect(store.load() == nil)
  }
}
