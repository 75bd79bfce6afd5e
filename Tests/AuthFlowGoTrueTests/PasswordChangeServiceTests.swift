import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import SavedSessions
import TestSupport
import Testing

/// A signed-in user's new password through the GoTrue adapter, and a session GoTrue ended.
struct PasswordChangeServiceTests {
  let api = ScriptedGoTrue()
  let store = MemorySessionStore()
  let clock = AdjustableClock(fixedAt: epoch)
  let service: GoTrueAuthService

  init() {
    service = GoTrueAuthService(api: api, sessions: store, clock: clock)
  }

  private func signIn() async throws -> AuthSession {
    api.script(.session(goTrueSession()))
    return try await service.signIn(email: "test@example.com", password: "pw")
  }

  @Test func aChangeKeepsTheSessionGoTrueKeeps() async throws {
    let session = try await signIn()
    api.script(.user(goTrueUser()))
    let result = try await service.updatePassword(session, newPassword: "New12345", nonce: nil)
    #expect(result == .changed(session))
    #expect(api.requests.last == .updatePassword(accessToken: "access-1", nonce: nil))
  }

  @Test func reauthenticationNeededRequestsTheCodeByEmail() async throws {
    let session = try await signIn()
    api.script(
      .failure(apiError(400, .reauthenticationNeeded, "Password update requires reauthentication")),
      .empty)
    let result = try await service.updatePassword(session, newPassword: "New12345", nonce: nil)
    #expect(result == .reauthenticationCodeSent)
    #expect(api.requests.last == .reauthenticate(accessToken: "access-1"))

    api.script(.failure(apiError(422, .reauthenticationNotValid)))
    let wrong = await authError {
      try await service.updatePassword(session, newPassword: "New12345", nonce: "000000")
    }
    #expect(wrong == .otpIncorrect)
    #expect(api.requests.last == .updatePassword(accessToken: "access-1", nonce: "000000"))
    #expect(store.load() == session)
  }

  @Test func samePasswordIsAnsweredAsSuch() async throws {
    let session = try await signIn()
    api.script(.failure(apiError(422, .samePassword)))
    let error = await authError {
      try await service.updatePassword(session, newPassword: "pw", nonce: nil)
    }
    #expect(error == .samePassword)
  }

  @Test func aRefreshPastTheSessionLimitEndsTheSession() async throws {
    let session = try await signIn()
    api.script(.failure(apiError(400, .sessionExpired, "Invalid Refresh Token: Session Expired")))
    let error = await authError { try await service.refresh(session) }
    #expect(error == .sessionExpired)
    #expect(store.load() == nil)
  }
}
