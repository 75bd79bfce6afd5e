import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// `accounts:signUp`: anonymous, email and password, linking, and an admin's accounts.
struct FirebaseSignUpTests {
  @Test func anAnonymousSignUpHasNoEmailAndItsTokensSayAnonymous() async throws {
    let emulation = try makeEmulation()
    var request = FirebaseSignUpRequest()
    (request.displayName, request.photoUrl) = ("Ignored", "http://127.0.0.1/ignored.png")
    let signedUp = try await emulation.signUp(request, privileged: false)
    let session = try #require(signedUp.session)
    #expect(signedUp.account.email.isEmpty)
    #expect(signedUp.account.displayName == nil && signedUp.account.photoURL == nil)
    #expect(signedUp.account.validSince == nil, "no password, no validSince")
    #expect(signedUp.account.lastLoginAt == Int64(testEpoch.timeIntervalSince1970 * 1_000))
    let claims = try emulation.claims(of: session.idToken)
    #expect(claims["provider_id"] == .string("anonymous"))
    #expect(
      claims["firebase"]
        == .object(["identities": .object([:]), "sign_in_provider": .string("anonymous")]))
    #expect(claims["email"] == nil && claims["email_verified"] == nil && claims["name"] == nil)
    let user = try emulation.record(signedUp.account.id)
    #expect(user.isAnonymous && user.email.isEmpty)
    let refreshed = try await emulation.refresh(refreshToken: session.refreshToken)
    #expect(try emulation.claims(of: refreshed.idToken)["provider_id"] == .string("anonymous"))
  }

  @Test func aUsersSignUpIsCheckedInTheEmulatorsOrder() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("taken@example.com")
    func request(
      _ email: String?, _ password: String?, idToken: String? = nil, localID: String? = nil
    ) -> FirebaseSignUpRequest {
      var request = FirebaseSignUpRequest()
      (request.email, request.password) = (email, password)
      (request.idToken, request.localId) = (idToken, localID)
      return request
    }
    let cases: [(FirebaseSignUpRequest, IdentityToolkitError)] = [
      (
        request("a@example.com", "x", localID: "mine"), .badRequest(.unexpectedParameter, "User ID")
      ),
      (request(nil, nil, idToken: session.idToken), .badRequest(.missingEmail)),
      (request("", "secret123"), .badRequest(.missingEmail)),
      (request("a@example.com", ""), .badRequest(.missingPassword)),
      (request("", ""), .badRequest(.invalidEmail)),
      (request("no-at", "12"), .badRequest(.invalidEmail)),
      (request("TAKEN@example.com", "12"), .badRequest(.emailExists)),
      (
        request("a@example.com", "12", idToken: "x.y.z"),
        .badRequest(.weakPassword, "Password should be at least 6 characters")
      ),
      (request("a@example.com", "secret123", idToken: "x.y.z"), .badRequest(.invalidIDToken)),
    ]
    for (attempt, expected) in cases {
      let failure = await firebaseFailure { try await emulation.signUp(attempt, privileged: false) }
      #expect(failure == expected, "\(attempt)")
    }
    let closed = try makeEmulation { $0.disableSignup = true }
    for attempt in [request(nil, nil), request("new@example.com", "secret123")] {
      let failure = await firebaseFailure { try await closed.signUp(attempt, privileged: false) }
      #expect(failure == .badRequest(.adminOnlyOperation))
    }
    #expect(
      await firebaseFailure { try await closed.signUp(request("", "x"), privileged: false) }
        == .badRequest(.missingEmail), "the missing fields come first")
  }

  @Test func linkingGivesAnAnonymousUserAnEmailAndPasswordUnderTheSameId() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let anonymous = try #require(
      try await emulation.signUp(FirebaseSignUpRequest(), privileged: false).session)
    clock.advance(by: 2)
    var link = FirebaseSignUpRequest()
    (link.idToken, link.email, link.password) = (anonymous.idToken, "Anon@Example.com", "secret123")
    link.displayName = "Ann"
    let linked = try #require(try await emulation.signUp(link, privileged: false).session)
    let now = Int64(clock.now.timeIntervalSince1970)
    #expect(linked.account.id == anonymous.account.id)
    #expect(linked.account.email == "anon@example.com" && !linked.account.emailVerified)
    #expect(linked.account.displayName == "Ann")
    #expect(linked.account.validSince == now && linked.account.lastLoginAt == now * 1_000)
    let claims = try emulation.claims(of: linked.idToken)
    #expect(claims["firebase"]?.objectValue?["sign_in_provider"] == .string("password"))
    #expect(claims["provider_id"] == nil)
    #expect(
      await firebaseFailure { try emulation.account(idToken: anonymous.idToken) }
        == .badRequest(.tokenExpired), "issued before the new validSince")
    let user = try emulation.record(anonymous.account.id)
    #expect(!user.isAnonymous && user.email == "anon@example.com" && user.hasEmailIdentity)
    _ = try await emulation.signIn(email: "anon@example.com", password: "secret123").signedIn()

    // Linking again replaces the email and password; no display name means none.
    var again = FirebaseSignUpRequest()
    (again.idToken, again.email, again.password) = (linked.idToken, "ann@example.com", "secret456")
    let relinked = try await emulation.signUp(again, privileged: false).account
    #expect(relinked.email == "ann@example.com" && relinked.displayName == nil)
    var disable = FirebaseAccountChanges()
    disable.disabled = true
    _ = try await emulation.update(id: relinked.id, disable)
    again.email = "other@example.com"
    #expect(
      await firebaseFailure { try await emulation.signUp(again, privileged: false) }
        == .badRequest(.userDisabled))
  }

  @Test func anAdminsSignUpIsCheckedInOrderAndSignsNobodyIn() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("taken@example.com")
    func request(_ change: (inout FirebaseSignUpRequest) -> Void) -> FirebaseSignUpRequest {
      var request = FirebaseSignUpRequest()
      change(&request)
      return request
    }
    let cases: [(FirebaseSignUpRequest, IdentityToolkitError)] = [
      (
        request { ($0.idToken, $0.localId) = (session.idToken, "x") },
        .badRequest(.unexpectedParameter, "User ID")
      ),
      (request { $0.localId = session.account.id }, .badRequest(.duplicateLocalID)),
      (
        request { ($0.localId, $0.phoneNumber) = ("fresh", "555") },
        .badRequest(.invalidPhoneNumber, "Invalid format.")
      ),
      // The number is checked first, and not kept when the email is refused.
      (
        request { ($0.phoneNumber, $0.email) = ("+15555550100", "bad") }, .badRequest(.invalidEmail)
      ),
      (request { $0.email = "bad" }, .badRequest(.invalidEmail)),
      (request { $0.email = "taken@example.com" }, .badRequest(.emailExists)),
      (
        request { ($0.email, $0.password) = ("new@example.com", "1") },
        .badRequest(.weakPassword, "Password should be at least 6 characters")
      ),
    ]
    for (attempt, expected) in cases {
      let failure = await firebaseFailure { try await emulation.signUp(attempt, privileged: true) }
      #expect(failure == expected, "\(attempt)")
    }
    let made = try await emulation.signUp(
      request {
        ($0.localId, $0.email, $0.password) = ("admin-made", "", "secret123")
        ($0.displayName, $0.photoUrl) = ("Made", "http://127.0.0.1/p.png")
        ($0.emailVerified, $0.disabled) = (true, true)
      }, privileged: true)
    #expect(made.session == nil)
    #expect(made.account.id == "admin-made" && made.account.email.isEmpty, "an empty email is none")
    #expect(made.account.photoURL == "http://127.0.0.1/p.png" && made.account.displayName == "Made")
    #expect(made.account.emailVerified && made.account.disabled && made.account.hasPassword)
    #expect(made.account.lastLoginAt == Int64(testEpoch.timeIntervalSince1970 * 1_000))
    #expect(try !emulation.record("admin-made").isAnonymous)
  }

  @Test func theSurfaceSpendsNoneOfGoTruesRequestBudgets() async throws {
    let emulation = try makeEmulation { configuration in
      configuration.rateLimits.token = .init(capacity: 1, period: 3_600)
      configuration.rateLimits.email = .init(capacity: 1, period: 3_600)
    }
    var session = try await emulation.newUser("first@example.com")
    for index in 0..<3 {
      _ = try await emulation.newUser("user\(index)@example.com")
      _ = try await emulation.signUp(FirebaseSignUpRequest(), privileged: false)
      _ = try await emulation.signIn(email: "first@example.com", password: "secret123").signedIn()
      session = try await emulation.refresh(refreshToken: session.refreshToken)
    }
    // GoTrue's own routes keep their budgets on the same engine.
    _ = try await emulation.engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let spent = await failure {
      try await emulation.engine.signIn(email: "test@example.com", password: "TestPassword123!")
    }
    #expect(spent?.apiError?.code == .overRequestRateLimit)
  }
}
