import AuthCrypto
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import TestSupport
import Testing

@testable import UserSeeds

/// Applying a users file to a store: fixed ids, hashed passwords, idempotence, and all or
/// nothing.
@Suite struct SeedApplyTests {
  static let adaID = "6f9619ff-8b86-d011-b42d-00c04fc964ff"
  static let bobID = "11111111-2222-4333-8444-555555555555"

  private func engine(clock: AdjustableClock = AdjustableClock(fixedAt: testEpoch)) throws
    -> EmbeddedGoTrue
  {
    try makeEngine(clock: clock) { $0.seedsDemoAccounts = false }
  }

  private func file(_ text: String) throws -> [SeedAccount] {
    try UsersFile.parse(Array(text.utf8), file: "users.json")
  }

  private var fixtures: String {
    """
    {"users": [
      {"id": "\(Self.adaID)", "email": "ada@example.com", "password": "correct horse",
       "email_confirm": true, "user_metadata": {"full_name": "Ada"},
       "app_metadata": {"plan": "pro"}},
      {"id": "\(Self.bobID)", "email": "bob@example.com", "password": "battery staple"}]}
    """
  }

  @Test func seededUserSignsInWithItsFixedIDAndMetadata() async throws {
    let engine = try engine()
    let outcome = try engine.seed(try file(fixtures), file: "users.json")
    #expect(outcome == SeedOutcome(added: 2, updated: 0, unchanged: 0))
    let session = try await engine.signIn(email: "ada@example.com", password: "correct horse")
    #expect(session.user.id == Self.adaID)
    #expect(session.user.userMetadata == ["full_name": .string("Ada")])
    #expect(session.user.appMetadata["plan"] == .string("pro"))
    #expect(session.user.appMetadata["provider"] == .string("email"))
    // Not confirmed: GoTrue's answer once the password is right.
    let refused = await failure {
      try await engine.signIn(email: "bob@example.com", password: "battery staple")
    }
    #expect(refused?.apiError?.code == .emailNotConfirmed)
  }

  @Test func plainPasswordsAreStoredAsBcryptAtTheStoreCost() throws {
    let engine = try engine()
    try engine.seed(try file(fixtures), file: "users.json")
    let stored = try engine.seedAccounts()
    for account in stored {
      guard case .bcrypt(let hash) = account.password else {
        Issue.record("\(account.id) has no hash")
        continue
      }
      #expect(Bcrypt.cost(of: hash) == Bcrypt.minimumCost)
    }
    let ada = stored.first { $0.id == Self.adaID }
    if case .bcrypt(let hash) = ada?.password {
      #expect(Bcrypt.verify("correct horse", against: hash))
    }
  }

  @Test func applyingTheSameFileAgainChangesNothing() throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let engine = try engine(clock: clock)
    let accounts = try file(fixtures)
    try engine.seed(accounts, file: "users.json")
    let before = try engine.listUsers(page: 1, perPage: 10)
    clock.advance(by: 3_600)
    let again = try engine.seed(accounts, file: "users.json")
    #expect(again == SeedOutcome(added: 0, updated: 0, unchanged: 2))
    #expect(try engine.listUsers(page: 1, perPage: 10) == before)
  }

  @Test func anExistingIDIsBroughtToTheFilesValues() async throws {
    let engine = try engine()
    try engine.seed(try file(fixtures), file: "users.json")
    let changed = try file(
      """
      {"users": [{"id": "\(Self.adaID)", "email": "ada@lovelace.org", "password": "new horse",
        "email_confirm": true, "user_metadata": {"full_name": "Ada L"}}]}
      """)
    let outcome = try engine.seed(changed, file: "users.json")
    #expect(outcome == SeedOutcome(added: 0, updated: 1, unchanged: 0))
    let session = try await engine.signIn(email: "ada@lovelace.org", password: "new horse")
    #expect(session.user.id == Self.adaID)
    #expect(session.user.userMetadata == ["full_name": .string("Ada L")])
    #expect(session.user.appMetadata["plan"] == nil)
  }

  @Test func anAddressHeldByAnotherAccountRefusesTheWholeFile() async throws {
    let engine = try engine()
    _ = try await engine.signUp(email: "taken@example.com", password: "whatever1", data: [:])
    let accounts = try file(
      """
      {"users": [{"id": "\(Self.adaID)", "email": "ada@example.com", "password": "correct horse"},
        {"id": "\(Self.bobID)", "email": "taken@example.com", "password": "battery staple"}]}
      """)
    var message: String?
    do {
      try engine.seed(accounts, file: "users.json")
    } catch {
      message = error.description
    }
    let holder = try #require(try engine.seedAccounts().first?.id)
    #expect(
      message
        == "users file users.json: users[1] (\(Self.bobID)): email: taken@example.com belongs to "
        + "account \(holder) in the store; change the address, or delete that account first")
    #expect(try engine.accountCount() == 1, "nothing of the file was applied")
  }

  @Test func accountsOfTheFileMaySwapAddresses() async throws {
    let engine = try engine()
    try engine.seed(try file(fixtures), file: "users.json")
    let swapped = try file(
      """
      {"users": [
        {"id": "\(Self.adaID)", "email": "bob@example.com", "password": "correct horse",
         "email_confirm": true},
        {"id": "\(Self.bobID)", "email": "ada@example.com", "password": "battery staple"}]}
      """)
    #expect(try engine.seed(swapped, file: "users.json").updated == 2)
    let session = try await engine.signIn(email: "bob@example.com", password: "correct horse")
    #expect(session.user.id == Self.adaID)
  }

  @Test func phoneNumbersAreKeptAsGoTrueKeepsThemAndMayMove() throws {
    let engine = try engine()
    let accounts = try file(
      """
      {"users": [{"id": "\(Self.adaID)", "phone": "+15555550100", "phone_confirm": true},
        {"id": "\(Self.bobID)", "email": "bob@example.com", "phone": "+15555550101"}]}
      """)
    #expect(
      try engine.seed(accounts, file: "users.json")
        == SeedOutcome(added: 2, updated: 0, unchanged: 0))
    let ada = try engine.user(id: Self.adaID)
    #expect(
      ada.phone == "15555550100" && ada.phoneConfirmedAt != nil && ada.email?.isEmpty != false)
    #expect(ada.identities?.map(\.provider) == ["phone"] && !ada.isAnonymous)
    #expect(
      ada.appMetadata == ["provider": .string("phone"), "providers": .array([.string("phone")])])
    let bob = try engine.user(id: Self.bobID)
    #expect(bob.phone == "15555550101" && bob.phoneConfirmedAt == nil)
    #expect(bob.appMetadata["providers"] == .array([.string("email"), .string("phone")]))
    #expect(try engine.seed(accounts, file: "users.json").unchanged == 2)

    let swapped = try file(
      """
      {"users": [{"id": "\(Self.adaID)", "phone": "+15555550101", "phone_confirm": true},
        {"id": "\(Self.bobID)", "email": "bob@example.com"}]}
      """)
    #expect(try engine.seed(swapped, file: "users.json").updated == 2)
    #expect(try engine.user(id: Self.adaID).phone == "15555550101")
    let bare = try engine.user(id: Self.bobID)
    #expect(bare.phone?.isEmpty != false && bare.identities?.map(\.provider) == ["email"])

    let outside = try file(
      #"{"users": [{"id": "\#(Self.bobID)", "email": "bob@example.com", "phone": "15555550101"}]}"#
    )
    var message: String?
    do {
      try engine.seed(outside, file: "users.json")
    } catch {
      message = error.description
    }
    #expect(
      message
        == "users file users.json: users[0] (\(Self.bobID)): phone: +15555550101 belongs to "
        + "account \(Self.adaID) in the store; change the number, or delete that account first")
  }

  @Test func firebaseAccountsKeepTheirLocalIDNameAndClaims() throws {
    let engine = try engine()
    let accounts = try file(
      """
      {"kind": "identitytoolkit#DownloadAccountResponse", "users": [
        {"localId": "Xy7fLQ2k", "email": "ada@example.com", "emailVerified": true,
         "displayName": "Ada", "passwordHash": "fakeHash:salt=fakeSaltAbc:password=pass1234",
         "salt": "fakeSaltAbc", "customAttributes": "{\\"role\\":\\"editor\\"}",
         "createdAt": "1700000000000", "disabled": true}]}
      """)
    try engine.seed(accounts, file: "accounts.json")
    let stored = try #require(try engine.seedAccounts().first)
    #expect(stored.id == "Xy7fLQ2k")
    #expect(stored.displayName == "Ada")
    #expect(stored.customClaims == #"{"role":"editor"}"#)
    #expect(stored.createdAt == 1_700_000_000_000)
    #expect(stored.disabled)
    #expect(stored.emailConfirmed)
    guard case .bcrypt(let hash) = stored.password else {
      Issue.record("the password is not kept as a bcrypt hash")
      return
    }
    #expect(Bcrypt.verify("pass1234", against: hash))
  }
}
