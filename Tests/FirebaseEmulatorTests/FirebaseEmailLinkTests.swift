import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// Signing in by email link: a new account, an existing one, and linking to an ID token's
/// user, with the emulator's checks in its order.
struct FirebaseEmailLinkTests {
  @Test func aLinkToANewAddressMakesAVerifiedAccountAndSignsItIn() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let code = try emulation.emailSignInCode("Alice@Example.com")
    clock.advance(by: 5)
    let (outcome, isNewUser) = try emulation.signInWithEmailLink(
      email: "ALICE@example.com", code: code.code, idToken: nil)
    let session = try outcome.signedIn()
    #expect(isNewUser)
    let account = session.account
    #expect(account.email == "alice@example.com" && account.emailVerified)
    #expect(account.emailLinkSignin && !account.hasPassword)
    #expect(account.lastLoginAt == account.createdAt && account.createdAt == clock.millis)
    let claims = try emulation.claims(of: session.idToken)
    #expect(claims["sub"] == .string(account.id) && claims["email_verified"] == .bool(true))
    #expect(
      claims["firebase"]?.objectValue?["sign_in_provider"] == .string("password"),
      "the emulator's (confusing) provider for email links")
    #expect(try emulation.account(idToken: session.idToken) == account)
    _ = try await emulation.refresh(refreshToken: session.refreshToken)
    #expect(
      await firebaseFailure {
        try emulation.signInWithEmailLink(email: "alice@example.com", code: code.code, idToken: nil)
      } == .badRequest(.invalidOOBCode))
    #expect(
      await firebaseFailure {
        try await emulation.signIn(email: "alice@example.com", password: "any-password").signedIn()
      } == .badRequest(.invalidPassword), "no password anyone knows")
  }

  @Test func anExistingAccountSignsInAndKeepsItsPassword() async throws {
    let emulation = try makeEmulation()
    let code = try emulation.emailSignInCode("unverified@example.com")
    let (outcome, isNewUser) = try emulation.signInWithEmailLink(
      email: "unverified@example.com", code: code.code, idToken: nil)
    let session = try outcome.signedIn()
    #expect(!isNewUser)
    #expect(session.account.emailVerified && session.account.emailLinkSignin)
    #expect(session.account.hasPassword)
    _ = try await emulation.signIn(email: "unverified@example.com", password: "Test1234").signedIn()
  }

  @Test func anIDTokensUserMovesToTheLinksAddress() async throws {
    let emulation = try makeEmulation()
    let bob = try await emulation.newUser("bob@example.com")
    let code = try emulation.emailSignInCode("alice@example.com")
    let (outcome, isNewUser) = try emulation.signInWithEmailLink(
      email: "alice@example.com", code: code.code, idToken: bob.idToken)
    let session = try outcome.signedIn()
    #expect(!isNewUser && session.account.id == bob.account.id)
    #expect(session.account.email == "alice@example.com" && session.account.emailVerified)
    #expect(try emulation.accounts(ids: [], emails: ["bob@example.com"]).isEmpty)
    _ = try await emulation.signIn(email: "alice@example.com", password: "secret123").signedIn()
    #expect(try emulation.account(idToken: bob.idToken).email == "alice@example.com")
  }

  @Test func checksComeInTheEmulatorsOrder() async throws {
    let emulation = try makeEmulation()
    let code = try emulation.emailSignInCode("alice@example.com")
    let reset = try emulation.resetCode("test@example.com")
    let cases: [((String?, String?, String?), IdentityToolkitError)] = [
      (("alice@example.com", code.code, "x.y.z"), .badRequest(.invalidIDToken)),
      ((nil, nil, nil), .badRequest(.missingEmail)),
      (("", code.code, ""), .badRequest(.missingEmail)),
      (("alice@example.com", nil, nil), .badRequest(.missingOOBCode)),
      (("alice@example.com", "invalid", nil), .badRequest(.invalidOOBCode)),
      (("test@example.com", reset.code, nil), .badRequest(.invalidOOBCode)),
      (
        ("NOT-alice@example.com", code.code, nil),
        .badRequest(.invalidEmail, "The email provided does not match the sign-in email address.")
      ),
    ]
    for ((email, oobCode, idToken), expected) in cases {
      #expect(
        await firebaseFailure {
          try emulation.signInWithEmailLink(email: email, code: oobCode, idToken: idToken)
        } == expected)
    }
    #expect(try emulation.codes() == [code, reset], "no check so far spends a code")
  }

  @Test func aDisabledUserOrATakenAddressSpendTheCode() async throws {
    let emulation = try makeEmulation()
    let alice = try await emulation.newUser("alice@example.com")
    let bob = try await emulation.newUser("bob@example.com")
    let taken = try emulation.emailSignInCode("alice@example.com")
    #expect(
      await firebaseFailure {
        try emulation.signInWithEmailLink(
          email: "alice@example.com", code: taken.code, idToken: bob.idToken)
      } == .badRequest(.emailExists))
    var disable = FirebaseAccountChanges()
    disable.disabled = true
    _ = try await emulation.update(id: alice.account.id, disable)
    let disabled = try emulation.emailSignInCode("alice@example.com")
    #expect(
      await firebaseFailure {
        try emulation.signInWithEmailLink(
          email: "alice@example.com", code: disabled.code, idToken: nil)
      } == .badRequest(.userDisabled))
    #expect(try emulation.codes().isEmpty, "both spent, as in the emulator")
    #expect(!(try emulation.accounts(ids: [alice.account.id], emails: [])[0].emailLinkSignin))
  }

  @Test func noNewAccountWhenSignupsAreOff() async throws {
    let emulation = try makeEmulation { $0.disableSignup = true }
    let code = try emulation.emailSignInCode("new@example.com")
    #expect(
      await firebaseFailure {
        try emulation.signInWithEmailLink(email: "new@example.com", code: code.code, idToken: nil)
      } == .badRequest(.adminOnlyOperation))
    #expect(try emulation.codes() == [code], "left unspent")
  }
}
