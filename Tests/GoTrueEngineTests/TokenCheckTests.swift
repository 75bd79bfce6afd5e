import AuthCrypto
import Clocks
import Foundation
import GoTrue
import Testing

@testable import GoTrueEngine

/// Incoming JWTs are checked strictly, and roles come only from verified tokens.
struct TokenCheckTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  /// A token over `header` and `claims`, signed with `secret` (HS256) or not at all.
  private func token(
    header: String = #"{"alg":"HS256","typ":"JWT"}"#, claims: [String: JSONValue],
    secret: [UInt8]?
  ) -> String {
    let input =
      Base64URL.encode(Array(header.utf8)) + "."
      + Base64URL.encode(JSONValue.object(claims).jsonBytes)
    guard let secret else { return input + "." }
    return input + "." + Base64URL.encode(HMAC.sha256(key: secret, message: Array(input.utf8)))
  }

  @Test func accessTokensCarryGoTruesClaims() async throws {
    let engine = try makeEngine(clock: clock) { $0.issuer = "http://127.0.0.1:9999/auth/v1" }
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let claims = try JSONWebToken.verify(
      session.accessToken, secret: engine.secrets.jwt, now: Int(testEpoch.timeIntervalSince1970))
    #expect(claims["iss"] == .string("http://127.0.0.1:9999/auth/v1"))
    #expect(claims["phone"] == .string(""))
    #expect(claims["aal"] == .string("aal1"))
    #expect(claims["app_metadata"] == .object(session.user.appMetadata))
    #expect(claims["user_metadata"] == .object(session.user.userMetadata))
    #expect(
      claims["amr"]
        == .array([
          .object([
            "method": .string("password"),
            "timestamp": .number(testEpoch.timeIntervalSince1970),
          ])
        ]))
    #expect(claims["is_anonymous"] == .bool(false))
  }

  @Test func onlyHS256SignedWithTheSecretIsBelieved() async throws {
    let engine = try makeEngine(clock: clock)
    let user = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
      .user
    let claims: [String: JSONValue] = [
      "sub": .string(user.id), "role": .string("service_role"), "exp": .number(4_102_444_800),
    ]
    let forgeries = [
      token(header: #"{"alg":"none","typ":"JWT"}"#, claims: claims, secret: nil),
      token(header: #"{"alg":"HS512","typ":"JWT"}"#, claims: claims, secret: engine.secrets.jwt),
      token(claims: claims, secret: Array("not the secret".utf8)),
      token(claims: claims, secret: nil),
      "a.b", "", "....",
    ]
    for forged in forgeries {
      let refused = await failure { try await engine.user(accessToken: forged) }
      #expect(refused?.apiError?.code == .badJWT, "\(forged)")
      #expect(refused?.apiError?.status == 403)
      #expect(refused?.apiError?.message.hasPrefix("invalid JWT: ") == true)
      #expect(
        failure(of: { try engine.authorizeAdmin(forged) })?.apiError?.code == .badJWT, "\(forged)")
    }
    let none = await failure { try await engine.user(accessToken: forgeries[0]) }
    #expect(
      none?.apiError?.message
        == "invalid JWT: unable to parse or verify signature, token signature is invalid: signing method none is invalid"
    )
  }

  @Test func expiryIsCheckedWhenPresent() throws {
    let engine = try makeEngine(clock: clock)
    let now = testEpoch.timeIntervalSince1970
    let expired = token(
      claims: ["role": .string("service_role"), "exp": .number(now)], secret: engine.secrets.jwt)
    #expect(
      failure(of: { try engine.authorizeAdmin(expired) })?.apiError?.message
        == "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired"
    )
    let lasting = token(claims: ["role": .string("service_role")], secret: engine.secrets.jwt)
    #expect(failure(of: { try engine.authorizeAdmin(lasting) }) == nil)
  }

  @Test func apiKeysAreStableJWTsWhoseRoleDecidesAdmin() throws {
    let engine = try makeEngine(clock: clock)
    #expect(engine.apiKey(role: "anon") == engine.apiKey(role: "anon"))
    #expect(failure(of: { try engine.authorizeAdmin(engine.apiKey(role: "service_role")) }) == nil)
    let anon = failure(of: { try engine.authorizeAdmin(engine.apiKey(role: "anon")) })
    #expect(
      anon?.apiError == GoTrueAPIError(status: 403, code: .notAdmin, message: "User not allowed"))
  }

  @Test func userRoutesNeedASubjectThatIsAUUIDOfALiveUser() async throws {
    let engine = try makeEngine(clock: clock)
    let anon = await failure { try await engine.user(accessToken: engine.apiKey(role: "anon")) }
    #expect(
      anon?.apiError
        == GoTrueAPIError(status: 403, code: .badJWT, message: "invalid claim: missing sub claim"))

    let notUUID = token(claims: ["sub": .string("alice")], secret: engine.secrets.jwt)
    let bad = await failure { try await engine.user(accessToken: notUUID) }
    #expect(bad?.apiError?.status == 400)
    #expect(bad?.apiError?.message == "invalid claim: sub claim must be a UUID")

    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    try engine.deleteUser(id: session.user.id)
    let gone = await failure { try await engine.user(accessToken: session.accessToken) }
    #expect(
      gone?.apiError
        == GoTrueAPIError(
          status: 403, code: .userNotFound, message: "User from sub claim in JWT does not exist"))
  }

  @Test func aConfiguredSecretSignsInsteadOfTheStoresOwn() async throws {
    let secret = Array("super-secret-jwt-token-with-at-least-32-characters-long".utf8)
    let engine = try makeEngine(clock: clock) { $0.jwtSecret = secret }
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    #expect(
      (try? JSONWebToken.verify(
        session.accessToken, secret: secret, now: Int(testEpoch.timeIntervalSince1970))) != nil)
  }
}

/// The GoTrue failure a synchronous `body` ends with, or `nil` when it succeeds.
func failure(of body: () throws -> Void) -> GoTrueFailure? {
  do {
    try body()
    return nil
  } catch let error as GoTrueFailure {
    return error
  } catch {
    Issue.record("expected a GoTrueFailure, got \(error)")
    return nil
  }
}
