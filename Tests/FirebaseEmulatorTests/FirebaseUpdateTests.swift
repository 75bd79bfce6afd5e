import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// `accounts:update` as the emulator does it: email changes, deletions, an admin's fields,
/// `validSince` and when new tokens come.
struct FirebaseUpdateTests {
  @Test func anEmailChangeKeepsTheFirstEmailAndTheTokensOfThatSecond() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let first = try await emulation.newUser("first@example.com")
    var change = FirebaseAccountChanges()
    change.email = "Second@Example.com"
    let moved = try await emulation.update(.idToken(first.idToken), change, privileged: false)
    #expect(moved.newEmail == "second@example.com")
    #expect(moved.account.email == "second@example.com" && !moved.account.emailVerified)
    #expect(try emulation.record(first.account.id).initialEmail == "first@example.com")
    let recovery = try emulation.codes().filter { $0.type == .recoverEmail }
    #expect(recovery.map(\.email) == ["first@example.com"], "a RECOVER_EMAIL code to it")
    let renewed = try #require(moved.session, "a new email moves validSince: new tokens")
    #expect(
      try emulation.account(idToken: first.idToken).email == "second@example.com",
      "a token of the same second is not revoked at once")
    #expect(try emulation.claims(of: renewed.idToken)["email"] == .string("second@example.com"))

    clock.advance(by: 3)
    change.email = "third@example.com"
    let again = try await emulation.update(.idToken(renewed.idToken), change, privileged: false)
    #expect(again.account.validSince == Int64(clock.now.timeIntervalSince1970))
    #expect(try emulation.record(first.account.id).initialEmail == "first@example.com")
    #expect(
      try emulation.codes().filter { $0.type == .recoverEmail }.map(\.email)
        == ["first@example.com", "first@example.com"], "always to the first email")
    #expect(
      await firebaseFailure { try emulation.account(idToken: renewed.idToken) }
        == .badRequest(.tokenExpired))
    #expect(
      await firebaseFailure { try await emulation.refresh(refreshToken: renewed.refreshToken) }
        == .badRequest(.invalidRefreshToken), "its session ended with it")
    change.email = "THIRD@example.com"
    let same = try await emulation.update(
      .idToken(try #require(again.session).idToken), change, privileged: false)
    #expect(same.session == nil && same.newEmail == "third@example.com", "no change, no tokens")
  }

  @Test func anAnonymousUserTakingAnEmailKeepsItsProviderAndNoInitialEmail() async throws {
    let emulation = try makeEmulation()
    let anonymous = try #require(
      try await emulation.signUp(FirebaseSignUpRequest(), privileged: false).session)
    var change = FirebaseAccountChanges()
    change.email = "anon@example.com"
    let update = try await emulation.update(.idToken(anonymous.idToken), change, privileged: false)
    let session = try #require(update.session)
    let claims = try emulation.claims(of: session.idToken)
    #expect(claims["firebase"]?.objectValue?["sign_in_provider"] == .string("anonymous"))
    #expect(claims["email"] == .string("anon@example.com"))
    #expect(try emulation.record(anonymous.account.id).initialEmail == nil)
    #expect(try emulation.codes().isEmpty, "no RECOVER_EMAIL code for an anonymous session")
    change.password = "secret123"
    change.email = nil
    let withPassword = try await emulation.update(
      .idToken(session.idToken), change, privileged: false)
    let provider = try emulation.claims(of: try #require(withPassword.session).idToken)["firebase"]
    #expect(provider?.objectValue?["sign_in_provider"] == .string("password"))
    #expect(try !emulation.record(anonymous.account.id).isAnonymous)
  }

  @Test func deletionsRemoveWhatTheyNameAndWinOverSets() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("gone@example.com", displayName: "Gone")
    var verify = FirebaseAccountChanges()
    verify.emailVerified = true
    _ = try await emulation.update(id: session.account.id, verify)
    var unlink = FirebaseAccountChanges()
    unlink.deletedProviders = ["phone", "google.com"]
    unlink.displayName = "Kept"
    unlink.photoURL = "http://127.0.0.1/photo.png"
    unlink.deletePhotoURL = true
    let unlinked = try await emulation.update(.idToken(session.idToken), unlink, privileged: false)
    #expect(unlinked.account.email == "gone@example.com" && unlinked.account.hasPassword)
    #expect(unlinked.account.displayName == "Kept" && unlinked.account.photoURL == nil)
    #expect(unlinked.session == nil, "a profile change keeps the tokens")

    var password = FirebaseAccountChanges()
    password.deletedProviders = ["password"]
    let removed = try await emulation.update(.idToken(session.idToken), password, privileged: false)
    #expect(removed.account.email.isEmpty && !removed.account.emailVerified)
    #expect(!removed.account.hasPassword && removed.session == nil)
    #expect(try emulation.account(idToken: session.idToken).email.isEmpty, "tokens stay valid")
    let fresh = try await emulation.newUser("gone@example.com")
    #expect(fresh.account.id != session.account.id, "the address is free again")

    var email = FirebaseAccountChanges()
    (email.deleteEmail, email.email) = (true, "other@example.com")
    let cleared = try await emulation.update(.idToken(fresh.idToken), email, privileged: false)
    #expect(cleared.account.email.isEmpty && cleared.account.hasPassword)
    #expect(try emulation.record(fresh.account.id).emailLinkSignin == false)
  }

  @Test func anAdminSetsClaimsTimesAndValidSinceAndGetsTokensOnlyWithAPassword() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let session = try await emulation.newUser("admin@example.com", displayName: "Ann")
    let id = session.account.id
    var changes = FirebaseAccountChanges()
    changes.customAttributes = #"{"role":"editor","name":"Custom","email":"spoof@example.com"}"#
    (changes.createdAt, changes.lastLoginAt) = (1_000, 2_000)
    changes.validSince = 5
    let update = try await emulation.update(.id(id), changes, privileged: true)
    #expect(update.session == nil, "no password: no provider, no tokens")
    #expect(update.account.createdAt == 1_000 && update.account.lastLoginAt == 2_000)
    #expect(update.account.validSince == 5, "an admin's value wins")
    #expect(try emulation.record(id).customClaims == changes.customAttributes)

    clock.advance(by: 2)
    let signedIn = try await emulation.signIn(email: "admin@example.com", password: "secret123")
      .signedIn()
    let claims = try emulation.claims(of: signedIn.idToken)
    #expect(claims["role"] == .string("editor"))
    #expect(claims["name"] == .string("Custom"), "custom claims come over the profile")
    #expect(claims["email"] == .string("admin@example.com"), "but not over reserved claims")
    #expect(claims["auth_time"] == .number(testEpoch.timeIntervalSince1970 + 2))

    var password = FirebaseAccountChanges()
    password.password = "another-secret"
    let changed = try await emulation.update(.id(id), password, privileged: true)
    let renewed = try #require(changed.session)
    #expect(
      try emulation.claims(of: renewed.idToken)["firebase"]?.objectValue?["sign_in_provider"]
        == .string("password"))
    var user = FirebaseAccountChanges()
    (user.validSince, user.emailVerified, user.disabled) = (1, true, nil)
    user.customAttributes = #"{"role":"owner"}"#
    clock.advance(by: 1)
    let revoked = try await emulation.update(.idToken(renewed.idToken), user, privileged: false)
    #expect(revoked.account.validSince == Int64(clock.now.timeIntervalSince1970), "any value: now")
    #expect(!revoked.account.emailVerified, "only an admin verifies")
    #expect(try emulation.record(id).customClaims == changes.customAttributes)
    #expect(revoked.session != nil, "validSince moved and the token names its provider")
  }

  @Test func customAttributesAreCheckedAsTheEmulatorChecksThem() throws {
    let long = #"{"a":""# + String(repeating: "x", count: 995) + #""}"#
    let cases: [(String, IdentityToolkitError)] = [
      (long, .badRequest(.claimsTooLarge)),
      ("{definitely[not]json}", .badRequest(.invalidClaims)),
      ("42", .badRequest(.invalidClaims)),
      (#"["a","b"]"#, .badRequest(.invalidClaims)),
      ("null", .badRequest(.invalidClaims)),
      (#"{"sub":"12345"}"#, .badRequest(.forbiddenClaim, "sub")),
      (#"{"firebase":{},"iss":"x"}"#, .badRequest(.forbiddenClaim, "iss")),
    ]
    for (text, expected) in cases {
      #expect(throws: expected, "\(text)") { try FirebaseCustomClaims.parse(serialized: text) }
    }
    #expect(try FirebaseCustomClaims.parse(serialized: #"{"ok":[1,2]}"#).count == 1)
    let justFits = #"{"a":""# + String(repeating: "é", count: 992) + #""}"#
    #expect(justFits.utf16.count == 1_000)
    #expect(try FirebaseCustomClaims.parse(serialized: justFits).count == 1)
  }
}
