import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Access tokens, refresh-token rotation, logout and password changes.
struct SessionTokenTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func signIn(_ engine: EmbeddedGoTrue) async throws -> GoTrueSession {
    try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
  }

  @Test(.readsSQLiteTables) func accessTokenIsAnHS256JWTWithGoTruesClaims() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await signIn(engine)
    let parts = session.accessToken.split(separator: ".").map(String.init)
    #expect(parts.count == 3)

    let header = try #require(Base64URL.decode(parts[0]))
    #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"HS256","typ":"JWT"}"#)
    let payload = try #require(Base64URL.decode(parts[1]))
    let claims = try #require(
      try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
    let issuedAt = Int(testEpoch.timeIntervalSince1970)
    #expect(claims["sub"] as? String == session.user.id)
    #expect(claims["email"] as? String == "test@example.com")
    #expect(claims["role"] as? String == "authenticated")
    #expect(claims["aud"] as? String == "authenticated")
    #expect(claims["iat"] as? Int == issuedAt)
    #expect(claims["exp"] as? Int == issuedAt + 3_600)
    let sessionID = try #require(claims["session_id"] as? String)
    #expect(try engine.rows("SELECT id FROM sessions")[0][0] == sessionID)

    let signature = HMAC.sha256(
      key: engine.secrets.jwt, message: Array("\(parts[0]).\(parts[1])".utf8))
    #expect(Base64URL.encode(signature) == parts[2])
  }

  @Test func accessTokensStopWorkingAtExpiryOrWhenTampered() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await signIn(engine)
    _ = try await engine.user(accessToken: session.accessToken)

    var forged = session.accessToken
    forged.removeLast()
    forged.append(session.accessToken.last == "A" ? "B" : "A")
    #expect(await failure { try await engine.user(accessToken: forged) }?.apiError?.code == .badJWT)
    #expect(await failure { try await engine.user(accessToken: "junk") }?.apiError?.code == .badJWT)

    clock.advance(by: 3_600)
    let expired = await failure { try await engine.user(accessToken: session.accessToken) }
    #expect(expired?.apiError?.code == .badJWT)
    #expect(expired?.apiError?.status == 403)
  }

  @Test(.readsSQLiteTables) func aJustRotatedTokenGetsTheSameNewSessionWithinTheReuseInterval()
    async throws
  {
    let engine = try makeEngine(clock: clock)
    let first = try await signIn(engine)
    let second = try await engine.refresh(refreshToken: first.refreshToken)
    clock.advance(by: 9)
    let again = try await engine.refresh(refreshToken: first.refreshToken)
    #expect(again.refreshToken == second.refreshToken, "the same new session, not a third")
    _ = try await engine.user(accessToken: again.accessToken)

    // Rotated further, the old token still leads to the one active token within the interval.
    let third = try await engine.refresh(refreshToken: second.refreshToken)
    let latest = try await engine.refresh(refreshToken: first.refreshToken)
    #expect(latest.refreshToken == third.refreshToken)
    #expect(try engine.rows("SELECT count(*) FROM refresh_tokens")[0][0] == "3")

    // A token that was never issued is still unknown; the derivation gives nothing away.
    let guessed = await failure { try await engine.refresh(refreshToken: first.refreshToken + "x") }
    #expect(guessed?.apiError?.code == .refreshTokenNotFound)
  }

  @Test func refreshRotatesAndReuseRevokesTheFamily() async throws {
    let engine = try makeEngine(clock: clock)
    let first = try await signIn(engine)
    clock.advance(by: 10)
    let second = try await engine.refresh(refreshToken: first.refreshToken)
    #expect(second.refreshToken != first.refreshToken)
    #expect(second.expiresAt == Int(testEpoch.timeIntervalSince1970) + 10 + 3_600)
    _ = try await engine.user(accessToken: second.accessToken)

    clock.advance(by: 11)  // past the reuse interval
    let reused = await failure { try await engine.refresh(refreshToken: first.refreshToken) }
    #expect(
      reused?.apiError
        == GoTrueAPIError(
          status: 400, code: .refreshTokenAlreadyUsed,
          message: "Invalid Refresh Token: Already Used"))

    // The whole family is gone, including the newest token and its access token's session.
    let after = await failure { try await engine.refresh(refreshToken: second.refreshToken) }
    #expect(after?.apiError?.code == .refreshTokenNotFound)
    let user = await failure { try await engine.user(accessToken: second.accessToken) }
    #expect(user?.apiError?.code == .sessionNotFound)
  }

  @Test func refreshRejectsUnknownAndMalformedTokens() async throws {
    let engine = try makeEngine(clock: clock)
    #expect(
      await failure { try await engine.refresh(refreshToken: "short") }?.apiError?.code
        == .validationFailed)
    #expect(
      await failure { try await engine.refresh(refreshToken: "unknown-token-value") }?.apiError?
        .code
        == .refreshTokenNotFound)
  }

  @Test(.readsSQLiteTables) func logoutScopes() async throws {
    let engine = try makeEngine(clock: clock)
    let a = try await signIn(engine)
    let b = try await signIn(engine)
    let c = try await signIn(engine)

    try await engine.logout(accessToken: a.accessToken, scope: .local)
    #expect(
      await failure { try await engine.user(accessToken: a.accessToken) }?.apiError?.code
        == .sessionNotFound)
    _ = try await engine.user(accessToken: b.accessToken)

    try await engine.logout(accessToken: b.accessToken, scope: .others)
    _ = try await engine.user(accessToken: b.accessToken)
    #expect(
      await failure { try await engine.user(accessToken: c.accessToken) }?.apiError?.code
        == .sessionNotFound, "others ends every session but this one")

    try await engine.logout(accessToken: b.accessToken, scope: .global)
    #expect(try engine.rows("SELECT count(*) FROM sessions")[0][0] == "0")
    #expect(
      await failure { try await engine.logout(accessToken: b.accessToken, scope: .local) }?
        .apiError?
        .code == .sessionNotFound)
  }

  @Test(.readsSQLiteTables) func passwordChangeRejectsTheSamePasswordAndEndsOtherSessions()
    async throws
  {
    let engine = try makeEngine(clock: clock)
    let current = try await signIn(engine)
    let other = try await signIn(engine)
    try await engine.recover(email: "test@example.com")

    let same = await failure {
      try await engine.updatePassword("TestPassword123!", accessToken: current.accessToken)
    }
    #expect(same?.apiError?.code == .samePassword)
    let weak = await failure {
      try await engine.updatePassword("abc", accessToken: current.accessToken)
    }
    #expect(weak?.apiError?.code == .weakPassword)

    _ = try await engine.updatePassword("BrandNew123", accessToken: current.accessToken)
    _ = try await engine.user(accessToken: current.accessToken)
    #expect(
      await failure { try await engine.user(accessToken: other.accessToken) }?.apiError?.code
        == .sessionNotFound)
    #expect(await failure { try await signIn(engine) }?.apiError?.code == .invalidCredentials)
    _ = try await engine.signIn(email: "test@example.com", password: "BrandNew123")
    #expect(
      try engine.rows("SELECT count(*) FROM one_time_tokens WHERE used_at IS NULL")[0][0] == "0")
  }
}
