import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// GoTrue's session limits (`SESSIONS_TIMEBOX`, `SESSIONS_INACTIVITY_TIMEOUT`): a refresh past
/// one is refused as GoTrue refuses it; with none, a session lasts as long as it is refreshed.
struct SessionLimitTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func signIn(_ engine: EmbeddedGoTrue) async throws -> GoTrueSession {
    try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
  }

  @Test func withoutLimitsASessionRefreshesAfterFourHundredDays() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await signIn(engine)
    clock.advance(by: 400 * 86_400)
    let refreshed = try await engine.refresh(refreshToken: session.refreshToken)
    #expect(refreshed.user.email == "test@example.com")
  }

  @Test(.readsSQLiteTables) func aRefreshPastTheTimeboxIsRefusedAsGoTrueRefusesIt() async throws {
    let engine = try makeEngine(clock: clock) { $0.sessionLimits.timebox = 24 * 3_600 }
    let session = try await signIn(engine)
    clock.advance(by: 23 * 3_600)
    // Used all along: the timebox counts from the sign-in all the same.
    let kept = try await engine.refresh(refreshToken: session.refreshToken)
    clock.advance(by: 3_600)
    let atTheLimit = try await engine.refresh(refreshToken: kept.refreshToken)
    clock.advance(by: 1)
    let refused = await failure { try await engine.refresh(refreshToken: atTheLimit.refreshToken) }
    #expect(
      refused?.apiError
        == GoTrueAPIError(
          status: 400, code: .sessionExpired, message: "Invalid Refresh Token: Session Expired"))
    // The session is not deleted, and stays refused.
    #expect(try engine.rows("SELECT count(*) FROM sessions")[0][0] == "1")
    let again = await failure { try await engine.refresh(refreshToken: atTheLimit.refreshToken) }
    #expect(again?.apiError?.code == .sessionExpired)
  }

  @Test func anIdleSessionEndsWhileARefreshedOneLasts() async throws {
    let engine = try makeEngine(clock: clock) { $0.sessionLimits.inactivityTimeout = 8 * 3_600 }
    var active = try await signIn(engine)
    let idle = try await signIn(engine)
    for _ in 0..<3 {
      clock.advance(by: 7 * 3_600)
      active = try await engine.refresh(refreshToken: active.refreshToken)
    }
    let refused = await failure { try await engine.refresh(refreshToken: idle.refreshToken) }
    #expect(refused?.apiError?.status == 400)
    #expect(refused?.apiError?.code == .sessionExpired)
    #expect(refused?.apiError?.message == "Invalid Refresh Token: Session Expired (Inactivity)")
  }

  @Test func theTimeboxIsToldBeforeInactivity() async throws {
    let engine = try makeEngine(clock: clock) {
      $0.sessionLimits = SessionLimits(timebox: 3_600, inactivityTimeout: 1_800)
    }
    let session = try await signIn(engine)
    clock.advance(by: 7_200)
    let refused = await failure { try await engine.refresh(refreshToken: session.refreshToken) }
    #expect(refused?.apiError?.message == "Invalid Refresh Token: Session Expired")
  }

  @Test func anEndedSessionsAccessTokenLivesToItsExpiry() async throws {
    // GoTrue's bearer routes do not check the limits: the token is good until `exp`.
    let engine = try makeEngine(clock: clock) { $0.sessionLimits.inactivityTimeout = 600 }
    let session = try await signIn(engine)
    clock.advance(by: 900)
    let refused = await failure { try await engine.refresh(refreshToken: session.refreshToken) }
    #expect(refused?.apiError?.code == .sessionExpired)
    let user = try await engine.user(accessToken: session.accessToken)
    #expect(user.email == "test@example.com")
  }
}
