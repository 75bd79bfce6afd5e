import AuthCrypto
import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// Custom tokens as the emulator reads them, and the sessions they begin.
struct FirebaseCustomTokenTests {
  /// An unsigned JWT (`alg: none`, empty signature) as the Admin SDKs make in emulator mode.
  static func unsigned(_ payload: [String: JSONValue]) -> String {
    Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "."
      + Base64URL.encode(JSONValue.object(payload).jsonBytes) + "."
  }

  static let audience = JSONValue.string(FirebaseCustomToken.audience)

  @Test func tokensAreReadAsTheEmulatorReadsThem() throws {
    let claims: JSONValue = .object(["tier": .string("gold"), "n": .number(42)])
    let jwt = try FirebaseCustomToken(
      parsing: Self.unsigned(["aud": Self.audience, "uid": .string("u1"), "claims": claims]))
    #expect(jwt.uid == "u1" && jwt.claims == claims.objectValue)
    let json = try FirebaseCustomToken(parsing: #"{"user_id":42,"claims":{}}"#)
    #expect(json.uid == "42" && json.claims.isEmpty, "JSON skips the audience; numbers are text")
    #expect(try FirebaseCustomToken(parsing: #"{"uid":false}"#).uid == "false")
    #expect(try FirebaseCustomToken(parsing: #"{"uid":"a","user_id":"b"}"#).uid == "a")

    let note = "Note: Firebase ID Tokens / third-party tokens cannot be used with "
    let cases: [(String, IdentityToolkitError)] = [
      (
        "{not+Json,That's=>For@Sure}",
        .badRequest(
          .invalidCustomToken,
          "((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
      ),
      (
        "ThisMayLookLikeAJWT.ButItWontDecode.ToJsonObjects",
        .badRequest(.invalidCustomToken, "Invalid assertion format")
      ),
      ("only.two", .badRequest(.invalidCustomToken, "Invalid assertion format")),
      (
        Self.unsigned(["uid": .string("u1"), "aud": .string("demo-app")]),
        .badRequest(
          .invalidCustomToken,
          "((Invalid aud (audience): demo-app \(note)signInWithCustomToken.))")
      ),
      (
        Self.unsigned(["uid": .string("u1")]),
        .badRequest(
          .invalidCustomToken,
          "((Invalid aud (audience): undefined \(note)signInWithCustomToken.))")
      ),
      (Self.unsigned(["aud": Self.audience]), .badRequest(.missingIdentifier)),
      (#"{"look":"I do not have uid"}"#, .badRequest(.missingIdentifier)),
      (#"{"uid":""}"#, .badRequest(.missingIdentifier)),
      (#"{"uid":"u","claims":null}"#, .badRequest(.invalidClaims)),
      (#"{"uid":"u","claims":["a"]}"#, .badRequest(.invalidClaims)),
      (#"{"uid":"wow","claims":{"firebase":"awesome"}}"#, .badRequest(.forbiddenClaim, "firebase")),
    ]
    for (token, expected) in cases {
      #expect(throws: expected, "\(token)") { try FirebaseCustomToken(parsing: token) }
    }
  }

  @Test func aCustomTokenMakesOrSignsInItsUserWithItsClaimsOnEveryToken() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let token = try FirebaseCustomToken(
      parsing: #"{"uid":"custom-1","claims":{"tier":"gold","ultimate":{"answer":42}}}"#)
    let (session, isNewUser) = try await emulation.signIn(customToken: token)
    #expect(isNewUser)
    #expect(session.account.id == "custom-1" && session.account.email.isEmpty)
    #expect(session.account.lastLoginAt == Int64(testEpoch.timeIntervalSince1970 * 1_000))
    let record = try emulation.record("custom-1")
    #expect(record.customAuth && !record.isAnonymous && !record.hasEmailIdentity)
    let claims = try emulation.claims(of: session.idToken)
    #expect(claims["tier"] == .string("gold"))
    #expect(claims["ultimate"] == .object(["answer": .number(42)]))
    #expect(claims["provider_id"] == nil && claims["email"] == nil)
    #expect(
      claims["firebase"]
        == .object(["identities": .object([:]), "sign_in_provider": .string("custom")]))

    clock.advance(by: 60)
    let refreshed = try await emulation.refresh(refreshToken: session.refreshToken)
    let again = try emulation.claims(of: refreshed.idToken)
    #expect(again["tier"] == .string("gold"), "the session keeps the token's claims")
    #expect(again["firebase"]?.objectValue?["sign_in_provider"] == .string("custom"))
    #expect(again["auth_time"] == .number(testEpoch.timeIntervalSince1970), "no new sign-in")
  }

  @Test func anExistingUsersClaimsAreMergedUnderTheTokensAndDisabledUsersAreRefused()
    async throws
  {
    let emulation = try makeEmulation()
    let user = try await emulation.newUser("alice@example.com")
    var changes = FirebaseAccountChanges()
    changes.customAttributes = #"{"abc":"abc","foo":"bar"}"#
    _ = try await emulation.update(id: user.account.id, changes)
    let token = try FirebaseCustomToken(
      parsing: #"{"uid":"\#(user.account.id)","claims":{"abc":"def"}}"#)
    let (session, isNewUser) = try await emulation.signIn(customToken: token)
    #expect(!isNewUser)
    let claims = try emulation.claims(of: session.idToken)
    #expect(claims["abc"] == .string("def") && claims["foo"] == .string("bar"))
    #expect(
      claims["firebase"]?.objectValue?["identities"]
        == .object(["email": .array([.string("alice@example.com")])]))
    #expect(try emulation.record(user.account.id).customAuth)

    var disable = FirebaseAccountChanges()
    disable.disabled = true
    _ = try await emulation.update(id: user.account.id, disable)
    #expect(
      await firebaseFailure { try await emulation.signIn(customToken: token) }
        == .badRequest(.userDisabled))
    let huge = try FirebaseCustomToken(
      parsing: #"{"uid":"big","claims":{"blob":"\#(String(repeating: "b", count: 9_000))"}}"#)
    let tooLarge = await firebaseFailure { try await emulation.signIn(customToken: huge) }
    #expect(tooLarge?.code == .claimsTooLarge)
    #expect(try emulation.accounts(ids: ["big"], emails: []).isEmpty, "nothing was made")
  }
}
