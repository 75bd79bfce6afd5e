import AuthCrypto
import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// The Firebase surface's sign-up, sign-in, refresh and ID tokens.
struct FirebaseSessionTests {
  @Test func aSignUpIsSignedInAtOnceWithTheEmulatorsClaims() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("New@Example.com", displayName: "Ann")
    let account = session.account
    #expect(UUIDText.isValid(account.id))
    #expect(account.email == "new@example.com")
    #expect(!account.emailVerified)
    #expect(account.displayName == "Ann")
    #expect(account.hasPassword)
    #expect(account.validSince == Int64(testEpoch.timeIntervalSince1970))
    #expect(account.lastLoginAt == Int64(testEpoch.timeIntervalSince1970 * 1_000))
    #expect(session.expiresIn == 3_600)
    let now = testEpoch.timeIntervalSince1970
    let claims = try emulation.claims(of: session.idToken)
    #expect(claims["iss"] == .string("https://securetoken.google.com/demo-app"))
    #expect(claims["aud"] == .string("demo-app"))
    #expect(claims["sub"] == .string(account.id))
    #expect(claims["user_id"] == .string(account.id))
    #expect(claims["iat"] == .number(now))
    #expect(claims["exp"] == .number(now + 3_600))
    #expect(claims["auth_time"] == .number(now))
    #expect(claims["email"] == .string("new@example.com"))
    #expect(claims["email_verified"] == .bool(false))
    #expect(claims["name"] == .string("Ann"))
    #expect(
      claims["firebase"]
        == .object([
          "identities": .object(["email": .array([.string("new@example.com")])]),
          "sign_in_provider": .string("password"),
        ]))
    #expect(session.idToken.hasPrefix("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."), "signed HS256")
  }

  @Test func signUpChecksComeInTheEmulatorsOrder() async throws {
    let emulation = try makeEmulation()
    let cases: [(String, String, IdentityToolkitError)] = [
      ("no-at-sign", "secret123", .badRequest(.invalidEmail)),
      ("a b@example.com", "secret123", .badRequest(.invalidEmail)),
      ("TEST@example.com", "x", .badRequest(.emailExists)),
      (
        "new@example.com", "12345",
        .badRequest(.weakPassword, "Password should be at least 6 characters")
      ),
      (
        "new@example.com", String(repeating: "a", count: 73),
        .badRequest(.passwordRequirements, "Password may not be longer than 72 bytes")
      ),
    ]
    for (email, password, expected) in cases {
      let failure = await firebaseFailure {
        try await emulation.signUp(email: email, password: password, displayName: nil)
      }
      #expect(failure == expected, "\(email)")
    }
    let closed = try makeEmulation { $0.disableSignup = true }
    #expect(
      await firebaseFailure { try await closed.newUser("new@example.com") }
        == .badRequest(.adminOnlyOperation))
  }

  @Test func unconfirmedUsersSignInHereButNotThroughGoTrue() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.signIn(email: "unverified@example.com", password: "Test1234")
      .signedIn()
    #expect(!session.account.emailVerified)
    let goTrue = await failure {
      try await emulation.engine.signIn(email: "unverified@example.com", password: "Test1234")
    }
    #expect(goTrue?.apiError?.code == .emailNotConfirmed)
  }

  @Test func signInAnswersTheEmulatorsCodes() async throws {
    let emulation = try makeEmulation()
    let cases: [(String, String, IdentityToolkitErrorCode)] = [
      ("nobody@example.com", "secret123", .emailNotFound),
      ("test@example.com", "wrong-password", .invalidPassword),
      ("test@example.com", "", .missingPassword),
      ("", "secret123", .invalidEmail),
    ]
    for (email, password, code) in cases {
      let failure = await firebaseFailure {
        try await emulation.signIn(email: email, password: password).signedIn()
      }
      #expect(failure?.code == code, "\(email)")
    }
    emulation.improvedEmailPrivacy = true
    for (email, password) in [("nobody@example.com", "x"), ("test@example.com", "wrong")] {
      let failure = await firebaseFailure {
        try await emulation.signIn(email: email, password: password).signedIn()
      }
      #expect(failure == .badRequest(.invalidLoginCredentials))
    }
    let test = try #require(try emulation.accounts(ids: [], emails: ["test@example.com"]).first)
    var disable = FirebaseAccountChanges()
    disable.disabled = true
    _ = try await emulation.update(id: test.id, disable)
    let disabled = await firebaseFailure {
      try await emulation.signIn(email: "test@example.com", password: "TestPassword123!").signedIn()
    }
    #expect(disabled == .badRequest(.userDisabled))
  }

  @Test func aUserSignsInThroughEitherSurfaceButEachSurfaceTakesOnlyItsOwnTokens() async throws {
    let emulation = try makeEmulation()
    let engine = emulation.engine
    let firebase = try await emulation.signIn(
      email: "test@example.com", password: "TestPassword123!"
    ).signedIn()
    let goTrue = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    #expect(goTrue.user.id == firebase.account.id, "one account")
    // Neither surface's tokens open the other's routes, ID and access tokens alike.
    let idTokenOnGoTrue = await failure { try await engine.user(accessToken: firebase.idToken) }
    #expect(idTokenOnGoTrue?.apiError?.code == .unexpectedAudience)
    #expect(
      await firebaseFailure { _ = try emulation.account(idToken: goTrue.accessToken) }
        == .badRequest(.invalidIDToken))
    // Nor do refresh tokens renew on the other surface; on their own they do.
    let firebaseRefreshOnGoTrue = await failure {
      try await engine.refresh(refreshToken: firebase.refreshToken)
    }
    #expect(firebaseRefreshOnGoTrue?.apiError?.code == .refreshTokenNotFound)
    #expect(
      await firebaseFailure { _ = try await emulation.refresh(refreshToken: goTrue.refreshToken) }
        == .badRequest(.invalidRefreshToken))
    let back = try await emulation.refresh(refreshToken: firebase.refreshToken)
    #expect(back.account.id == firebase.account.id)
    #expect(try emulation.account(idToken: back.idToken).email == "test@example.com")
    #expect(try await engine.refresh(refreshToken: goTrue.refreshToken).user.id == goTrue.user.id)

    let made = try await emulation.newUser("both@example.com")
    var verify = FirebaseAccountChanges()
    verify.emailVerified = true
    _ = try await emulation.update(id: made.account.id, verify)
    let session = try await engine.signIn(email: "both@example.com", password: "secret123")
    #expect(session.user.id == made.account.id)
    #expect(session.user.emailConfirmedAt != nil)
  }

  @Test func refreshRotatesAndRefusesWhatItShould() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("r@example.com")
    let refreshed = try await emulation.refresh(refreshToken: session.refreshToken)
    #expect(refreshed.refreshToken != session.refreshToken)
    #expect(try emulation.account(idToken: refreshed.idToken).id == session.account.id)
    for token in ["", "short", "not-a-refresh-token-at-all"] {
      #expect(
        await firebaseFailure { try await emulation.refresh(refreshToken: token) }
          == .badRequest(.invalidRefreshToken))
    }
    var disable = FirebaseAccountChanges()
    disable.disabled = true
    _ = try await emulation.update(id: session.account.id, disable)
    #expect(
      await firebaseFailure { try await emulation.refresh(refreshToken: refreshed.refreshToken) }
        == .badRequest(.userDisabled))
    try emulation.delete(id: session.account.id)
    #expect(
      await firebaseFailure { try await emulation.refresh(refreshToken: refreshed.refreshToken) }
        == .badRequest(.invalidRefreshToken))
  }

  @Test func idTokensAreCheckedStrictly() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let session = try await emulation.newUser("t@example.com")
    let parts = session.idToken.split(separator: ".").map(String.init)
    let unsigned =
      Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + parts[1] + "."
    let tampered = parts[0] + "." + parts[1] + "." + String(parts[2].reversed())
    let goTrue = try await emulation.engine.signIn(
      email: "test@example.com", password: "TestPassword123!")
    let otherProject = FirebaseEmulation(
      engine: emulation.engine, projectID: "other", linkBase: "http://127.0.0.1:9099")
    for token in ["", "x.y.z", unsigned, tampered, goTrue.accessToken] {
      #expect(
        await firebaseFailure { try emulation.account(idToken: token) }
          == .badRequest(.invalidIDToken))
    }
    #expect(
      await firebaseFailure { try otherProject.account(idToken: session.idToken) }
        == .badRequest(.invalidIDToken))
    clock.advance(by: 3_600)
    #expect(
      await firebaseFailure { try emulation.account(idToken: session.idToken) }
        == .badRequest(.tokenExpired), "exp is checked, unlike in the emulator")
  }

  @Test func revokingEndsTheTokensAndSessionsOfThatSecondAndBefore() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let session = try await emulation.newUser("v@example.com")
    clock.advance(by: 10)
    var revoke = FirebaseAccountChanges()
    revoke.validSince = Int64(clock.now.timeIntervalSince1970)
    let account = try await emulation.update(id: session.account.id, revoke)
    #expect(account.validSince == Int64(clock.now.timeIntervalSince1970))
    #expect(
      await firebaseFailure { try emulation.account(idToken: session.idToken) }
        == .badRequest(.tokenExpired))
    #expect(
      await firebaseFailure { try await emulation.refresh(refreshToken: session.refreshToken) }
        == .badRequest(.invalidRefreshToken))
    let again = try await emulation.signIn(email: "v@example.com", password: "secret123").signedIn()
    #expect(try emulation.account(idToken: again.idToken).id == session.account.id)
    // GoTrue's sign-out takes no ID token, and so cannot end the session either.
    let logout = await failure {
      try await emulation.engine.logout(accessToken: again.idToken, scope: .local)
    }
    #expect(logout?.apiError?.code == .unexpectedAudience)
    #expect(try emulation.account(idToken: again.idToken).id == session.account.id)
  }

  @Test func firebaseIDTokensOpenNoneOfGoTruesRoutes() async throws {
    let firebase = try makeEmulation()
    let engine = firebase.engine
    // unverified@ cannot get a GoTrue session, but signs in on the Firebase surface.
    let idToken = try await firebase.signIn(email: "unverified@example.com", password: "Test1234")
      .signedIn()
      .idToken
    let refused = await failure { try await engine.user(accessToken: idToken) }
    #expect(
      refused?.apiError
        == GoTrueAPIError(
          status: 403, code: .unexpectedAudience,
          message: "Token audience doesn't match request audience"))
    let update = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(password: "Another123"), accessToken: idToken)
    }
    #expect(update?.apiError?.code == .unexpectedAudience)
    #expect(await failure { try await engine.deleteUser(accessToken: idToken) } != nil)
    // Not even with a role in it: Firebase's claims mark the token as the other surface's.
    let later = testEpoch.timeIntervalSince1970 + 60
    let claims: [String: JSONValue] = [
      "role": .string("service_role"), "exp": .number(later),
      "iss": .string("https://securetoken.google.com/demo-app"), "aud": .string("demo-app"),
    ]
    let input =
      Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "."
      + Base64URL.encode(JSONValue.object(claims).jsonBytes)
    let withRole =
      input + "."
      + Base64URL.encode(HMAC.sha256(key: engine.secrets.jwt, message: Array(input.utf8)))
    #expect(failure(of: { try engine.authorizeAdmin(withRole) })?.apiError?.code == .notAdmin)
  }
}
