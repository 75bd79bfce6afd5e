import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
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

  @Test func aUsersTokenNeedsAnExpiryAnAdminKeyMayGoWithout() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    var claims = try JSONWebToken.verify(session.accessToken, secret: engine.secrets.jwt, now: nil)
    claims["exp"] = nil
    let endless = token(claims: claims, secret: engine.secrets.jwt)
    let refused = await failure { try await engine.user(accessToken: endless) }
    #expect(
      refused?.apiError?.message
        == "invalid JWT: unable to parse or verify signature, token has invalid claims: token is "
        + "missing required claim: exp claim is required")
    // GoTrue takes an admin key without `exp`, and test suites mint theirs so (supabase-py's).
    let key = token(claims: ["role": .string("service_role")], secret: engine.secrets.jwt)
    #expect(failure(of: { try engine.authorizeAdmin(key) }) == nil)
    let user = token(claims: ["role": .string("authenticated")], secret: engine.secrets.jwt)
    #expect(failure(of: { try engine.authorizeAdmin(user) })?.apiError?.code == .notAdmin)
  }

  @Test func expiryAndNotBeforeAndIssuedAtAreChecked() throws {
    let engine = try makeEngine(clock: clock)
    let now = testEpoch.timeIntervalSince1970
    let prefix = "invalid JWT: unable to parse or verify signature, token has invalid claims: "
    let cases: [([String: JSONValue], String?)] = [
      (["exp": .number(now)], "token is expired"),
      (["exp": .number(now + 60), "nbf": .number(now + 1)], "token is not valid yet"),
      (["exp": .number(now + 60), "iat": .number(now + 1)], "token used before issued"),
      (["exp": .number(now + 60), "nbf": .number(now), "iat": .number(now)], nil),
    ]
    for (times, expected) in cases {
      var claims = times
      claims["role"] = .string("service_role")
      let bearer = token(claims: claims, secret: engine.secrets.jwt)
      #expect(
        failure(of: { try engine.authorizeAdmin(bearer) })?.apiError?.message
          == expected.map { prefix + $0 }, "\(times)")
    }
  }

  @Test func aNameGivenTwiceInAHeaderOrClaimsIsRefusedHoweverItIsSpelled() throws {
    let engine = try makeEngine(clock: clock)
    let later = testEpoch.timeIntervalSince1970 + 60
    // Foundation reads the first of two names, Go the last (and Go matches claims to its
    // struct's fields ignoring case, with Unicode folding): each of these is ambiguous.
    let payloads = [
      #"{"role":"authenticated","exp":EXP,"role":"service_role"}"#,
      #"{"role":"authenticated","exp":EXP,"ROLE":"service_role"}"#,
      #"{"role":"authenticated","exp":EXP,"\u0072ole":"service_role"}"#,
      #"{"ſub":"x","sub":"y","role":"service_role","exp":EXP}"#,
    ].map { $0.replacing("EXP", with: "\(Int(later))") }
    for payload in payloads {
      let input =
        Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "."
        + Base64URL.encode(Array(payload.utf8))
      let signed =
        input + "."
        + Base64URL.encode(HMAC.sha256(key: engine.secrets.jwt, message: Array(input.utf8)))
      #expect(
        failure(of: { try engine.authorizeAdmin(signed) })?.apiError?.message
          == "invalid JWT: unable to parse or verify signature, token is malformed: could not JSON "
          + "decode claim", "\(payload)")
    }
    let header = token(
      header: #"{"alg":"HS256","alg":"none","typ":"JWT"}"#,
      claims: ["role": .string("service_role"), "exp": .number(later)], secret: engine.secrets.jwt)
    #expect(failure(of: { try engine.authorizeAdmin(header) })?.apiError?.code == .badJWT)
    // Names repeated in different objects, or differing in case below the top, are fine.
    let nested = token(
      claims: [
        "role": .string("service_role"), "exp": .number(later),
        "user_metadata": .object(["Name": .string("a"), "name": .string("b")]),
        "app_metadata": .object(["role": .string("x")]),
      ], secret: engine.secrets.jwt)
    #expect(failure(of: { try engine.authorizeAdmin(nested) }) == nil)
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

    let notUUID = token(
      claims: ["sub": .string("alice"), "exp": .number(4_102_444_800)], secret: engine.secrets.jwt)
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
