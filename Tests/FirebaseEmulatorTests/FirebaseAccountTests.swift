import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// What users and admins change through the Firebase surface.
struct FirebaseAccountTests {
  @Test func aUserChangingTheirPasswordGetsANewSessionAndTheOldOneEnds() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let session = try await emulation.newUser("p@example.com")
    clock.advance(by: 5)
    var changes = FirebaseAccountChanges()
    changes.password = "another-secret"
    changes.displayName = "Pat"
    changes.emailVerified = true
    changes.validSince = 0
    let (account, renewed) = try await emulation.update(idToken: session.idToken, changes)
    #expect(account.displayName == "Pat")
    #expect(!account.emailVerified, "a user cannot verify their own email")
    #expect(account.validSince == Int64(clock.now.timeIntervalSince1970))
    let fresh = try #require(renewed)
    #expect(try emulation.account(idToken: fresh.idToken).id == account.id)
    #expect(
      await firebaseFailure { try emulation.account(idToken: session.idToken) }
        == .badRequest(.tokenExpired))
    _ = try await emulation.signIn(email: "p@example.com", password: "another-secret").signedIn()

    var profile = FirebaseAccountChanges()
    profile.displayName = "Patricia"
    let (_, none) = try await emulation.update(idToken: fresh.idToken, profile)
    #expect(none == nil, "a profile change keeps the tokens")
    var disable = FirebaseAccountChanges()
    disable.disabled = true
    #expect(
      await firebaseFailure { try await emulation.update(idToken: fresh.idToken, disable) }
        == .badRequest(.operationNotAllowed))
  }

  @Test func aNewEmailIsUnverifiedAndMustBeFree() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.signIn(
      email: "test@example.com", password: "TestPassword123!"
    ).signedIn()
    var taken = FirebaseAccountChanges()
    taken.email = "Unverified@example.com"
    #expect(
      await firebaseFailure { try await emulation.update(idToken: session.idToken, taken) }
        == .badRequest(.emailExists))
    var invalid = FirebaseAccountChanges()
    invalid.email = "nope"
    #expect(
      await firebaseFailure { try await emulation.update(idToken: session.idToken, invalid) }
        == .badRequest(.invalidEmail))
    var moved = FirebaseAccountChanges()
    moved.email = "Moved@Example.com"
    let (account, renewed) = try await emulation.update(idToken: session.idToken, moved)
    #expect(account.email == "moved@example.com")
    #expect(!account.emailVerified)
    #expect(renewed != nil)
    let user = try emulation.engine.user(id: account.id)
    #expect(user.email == "moved@example.com")
    #expect(user.userMetadata["email"] == .string("moved@example.com"))
    #expect(user.userMetadata["email_verified"] == .bool(false))
  }

  @Test func anAdminCreatesAccountsWithChosenIdsAndSettings() async throws {
    let emulation = try makeEmulation()
    var new = FirebaseNewAccount()
    new.id = "my-uid"
    new.email = "Admin.Made@example.com"
    new.password = "secret123"
    new.displayName = "Made"
    new.photoURL = "http://127.0.0.1/p.png"
    new.emailVerified = true
    new.disabled = true
    let account = try await emulation.create(new)
    #expect(account.id == "my-uid")
    #expect(account.email == "admin.made@example.com")
    #expect(account.emailVerified && account.disabled && account.hasPassword)
    #expect(account.photoURL == "http://127.0.0.1/p.png")
    #expect(account.passwordUpdatedAt == Int64(testEpoch.timeIntervalSince1970 * 1_000))

    let cases: [(FirebaseNewAccount, IdentityToolkitError)] = [
      (new, .badRequest(.duplicateLocalID)),
      (
        with(\.id, String(repeating: "u", count: 129)),
        .badRequest("INVALID_LOCAL_ID", "The uid must be 1 to 128 characters")
      ),
      (with(\.email, "test@example.com"), .badRequest(.emailExists)),
      (with(\.email, "no-at"), .badRequest(.invalidEmail)),
    ]
    for (attempt, expected) in cases {
      #expect(await firebaseFailure { try await emulation.create(attempt) } == expected)
    }
    let nameless = try await emulation.create(FirebaseNewAccount())
    #expect(nameless.email.isEmpty && !nameless.hasPassword, "an account needs no email")
    var bare = FirebaseNewAccount()
    bare.email = "bare@example.com"
    let passwordless = try await emulation.create(bare)
    #expect(!passwordless.hasPassword)
    #expect(passwordless.validSince == nil)
    #expect(
      await firebaseFailure {
        try await emulation.signIn(email: "bare@example.com", password: "x").signedIn()
      }
        == .badRequest(.invalidPassword))
    // GoTrue's admin API answers 404 for an id that is not a UUID, as for an unknown one.
    #expect(
      (await failure { try emulation.engine.user(id: "my-uid") })?.apiError?.status == 404)
  }

  private func with(_ field: WritableKeyPath<FirebaseNewAccount, String?>, _ value: String)
    -> FirebaseNewAccount
  {
    var new = FirebaseNewAccount()
    new.email = "fresh@example.com"
    new[keyPath: field] = value
    return new
  }

  @Test func adminChangesVerifyDisableAndRemove() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("a@example.com", displayName: "A")
    var changes = FirebaseAccountChanges()
    changes.emailVerified = true
    changes.deleteDisplayName = true
    changes.disabled = true
    let account = try await emulation.update(id: session.account.id, changes)
    #expect(account.emailVerified && account.disabled && account.displayName == nil)
    #expect(try emulation.engine.user(id: account.id).bannedUntil != nil)
    var enable = FirebaseAccountChanges()
    enable.disabled = false
    enable.deletePassword = true
    let enabled = try await emulation.update(id: account.id, enable)
    #expect(!enabled.disabled && !enabled.hasPassword)
    #expect(
      await firebaseFailure { try await emulation.update(id: "nobody", enable) }
        == .badRequest(.userNotFound))
  }

  @Test func lookupsFindEachAccountOnceInTheOrderAsked() async throws {
    let emulation = try makeEmulation()
    let one = try await emulation.newUser("one@example.com")
    let found = try emulation.accounts(
      ids: [one.account.id, "missing", one.account.id],
      emails: ["TEST@example.com", "one@example.com", "nobody@example.com"])
    #expect(found.map(\.email) == ["one@example.com", "test@example.com"])
    #expect(try emulation.accounts(ids: ["missing"], emails: []).isEmpty)
  }

  @Test func pagesGoByIdAndHaveATokenWhenFull() async throws {
    let emulation = try makeEmulation { $0.seedsDemoAccounts = false }
    for id in ["c", "a", "b"] {
      var new = FirebaseNewAccount()
      (new.id, new.email) = (id, "\(id)@example.com")
      _ = try await emulation.create(new)
    }
    let first = try emulation.page(after: nil, limit: 2)
    #expect(first.accounts.map(\.id) == ["a", "b"])
    #expect(first.next == "b")
    let second = try emulation.page(after: "b", limit: 2)
    #expect(second.accounts.map(\.id) == ["c"])
    #expect(second.next == nil)
    let exact = try emulation.page(after: "a", limit: 2)
    #expect(exact.next == "c", "a full last page still has a token, as in the emulator")
    #expect(try emulation.page(after: "c", limit: 2).accounts.isEmpty)
    #expect(try emulation.page(after: nil, limit: -1).accounts.count == 3)
    #expect(try emulation.page(after: nil, limit: nil).accounts.count == 3)
  }

  @Test func batchDeletionNeedsForceForEnabledAccounts() async throws {
    let emulation = try makeEmulation()
    let one = try await emulation.newUser("one@example.com")
    let refused = try emulation.delete(ids: ["missing", one.account.id], force: false)
    #expect(refused.map(\.index) == [1])
    #expect(refused.first?.message == "NOT_DISABLED : Disable the account before batch deletion.")
    #expect(try emulation.delete(ids: [one.account.id], force: true).isEmpty)
    #expect(try emulation.accounts(ids: [one.account.id], emails: []).isEmpty)
    #expect(
      await firebaseFailure { try emulation.delete(ids: [], force: true) }
        == .badRequest(.localIDListExceedsLimit))
    try emulation.deleteAllAccounts()
    #expect(try emulation.engine.accountCount() == 0)
    #expect(await firebaseFailure { try emulation.delete(id: "x") } == .badRequest(.userNotFound))
  }

  @Test func aFirebaseProfileThatWouldOverflowTheIDTokenIsClaimsTooLarge() async throws {
    let emulation = try makeEmulation()
    let long = String(repeating: "n", count: 9_000)
    let signUp = await firebaseFailure {
      try await emulation.signUp(email: "big@example.com", password: "secret123", displayName: long)
    }
    #expect(signUp?.message.hasPrefix("CLAIMS_TOO_LARGE") == true)
    let session = try await emulation.newUser("ok@example.com", displayName: "Ann")
    var changes = FirebaseAccountChanges()
    changes.photoURL = "https://example.com/" + long
    let update = await firebaseFailure {
      try await emulation.update(id: session.account.id, changes)
    }
    #expect(update?.message.hasPrefix("CLAIMS_TOO_LARGE") == true)
    #expect(try emulation.account(idToken: session.idToken).photoURL == nil)
  }
}
