import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// The admin API: list, create, get, update, delete.
struct AdminTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  @Test func createsUsersWithGoTruesDefaults() async throws {
    let engine = try makeEngine(clock: clock)
    let user = try await engine.createUser(
      GoTrueAdminUserAttributes(
        email: "Ada@Example.com", password: "short", emailConfirm: true,
        userMetadata: ["name": .string("Ada")], appMetadata: ["plan": .string("pro")]))
    #expect(user.email == "ada@example.com")
    #expect(user.emailConfirmedAt == testEpoch)
    #expect(user.userMetadata == ["name": .string("Ada")])
    #expect(
      user.appMetadata
        == [
          "provider": .string("email"), "providers": .array([.string("email")]),
          "plan": .string("pro"),
        ])
    #expect(user.identities?.count == 1)
    #expect(user.role == "authenticated")
    // An admin may set a password shorter than the minimum, as in GoTrue.
    let session = try await engine.signIn(email: "ada@example.com", password: "short")
    #expect(session.user.id == user.id)
    #expect(engine.outbox.messages.isEmpty, "admins send no email")
  }

  @Test func refusesDuplicatesAndMalformedRequests() async throws {
    let engine = try makeEngine(clock: clock)
    let cases: [(GoTrueAdminUserAttributes, GoTrueErrorCode, String)] = [
      (
        GoTrueAdminUserAttributes(email: "test@example.com"), .emailExists,
        "A user with this email address has already been registered"
      ),
      (
        GoTrueAdminUserAttributes(), .validationFailed,
        "Cannot create a user without either an email or phone"
      ),
      (
        GoTrueAdminUserAttributes(id: "42", email: "a@example.com"), .validationFailed,
        "ID must conform to the uuid v4 format"
      ),
      (
        GoTrueAdminUserAttributes(email: "a@example.com", password: "x", passwordHash: "y"),
        .validationFailed, "Only a password or a password hash should be provided"
      ),
      (
        GoTrueAdminUserAttributes(email: "a@example.com", banDuration: "forever"),
        .validationFailed, "invalid format for ban duration: time: invalid duration \"forever\""
      ),
      (
        GoTrueAdminUserAttributes(
          email: "a@example.com", password: String(repeating: "x", count: 73)),
        .validationFailed, "Password cannot be longer than 72 characters"
      ),
      (
        GoTrueAdminUserAttributes(phone: "+0555"), .validationFailed,
        "Invalid phone number format (E.164 required)"
      ),
      (
        GoTrueAdminUserAttributes(email: "", phone: ""), .validationFailed,
        "Cannot create a user without either an email or phone"
      ),
    ]
    for (attributes, code, message) in cases {
      let refused = await failure { try await engine.createUser(attributes) }
      #expect(refused?.apiError?.code == code, "\(attributes)")
      #expect(refused?.apiError?.message == message)
    }
    #expect(try engine.listUsers(page: 1, perPage: 50).total == 2, "nothing was created")
  }

  @Test func takesAnIDAndABcryptHash() async throws {
    let engine = try makeEngine(clock: clock)
    let id = "6f1c2b3a-4d5e-4f60-8a9b-0c1d2e3f4a5b"
    let hash = try Bcrypt.hash("Imported1", cost: 4, random: SeededRandom(seed: 2))
    let user = try await engine.createUser(
      GoTrueAdminUserAttributes(
        id: id.uppercased(), email: "imported@example.com", passwordHash: hash, emailConfirm: true))
    #expect(user.id == id)
    _ = try await engine.signIn(email: "imported@example.com", password: "Imported1")
    let again = await failure {
      try await engine.createUser(GoTrueAdminUserAttributes(id: id, email: "other@example.com"))
    }
    #expect(again?.apiError?.code == .userAlreadyExists)
  }

  @Test func aHashTooSlowToCheckIsRefused() async throws {
    let engine = try makeEngine(clock: clock)
    // A hash's cost is in its text: "$2b$31$" and 53 characters of bcrypt's base64.
    let slow = "$2b$31$" + String(repeating: "a", count: 53)
    let refused = await failure {
      try await engine.createUser(
        GoTrueAdminUserAttributes(email: "slow@example.com", passwordHash: slow))
    }
    #expect(refused?.apiError?.status == 400)
    #expect(refused?.apiError?.code == .validationFailed)
    #expect(refused?.apiError?.message.contains("bcrypt cost 31") == true)
    #expect(try engine.listUsers(page: 1, perPage: 50).total == 2, "nothing was created")
  }

  @Test func listsNewestFirstInPagesWithATotal() async throws {
    let engine = try makeEngine(clock: clock)
    for index in 1...3 {
      clock.advance(by: 1)
      _ = try await engine.createUser(GoTrueAdminUserAttributes(email: "user\(index)@example.com"))
    }
    let first = try engine.listUsers(page: 1, perPage: 2)
    #expect(first.total == 5)
    #expect(first.users.map(\.email) == ["user3@example.com", "user2@example.com"])
    #expect(first.users.allSatisfy { $0.identities == nil }, "lists carry no identities")
    let third = try engine.listUsers(page: 3, perPage: 2)
    #expect(third.users.count == 1)
    #expect(try engine.listUsers(page: 4, perPage: 2).users.isEmpty)
    let oldest = try engine.listUsers(page: 1, perPage: 1, order: .oldestFirst)
    let demoAccounts: Set = ["test@example.com", "unverified@example.com"]
    #expect(demoAccounts.contains(oldest.users.first?.email ?? ""))
    let filtered = try engine.listUsers(page: 1, perPage: 50, filter: "USER2")
    #expect(filtered.users.map(\.email) == ["user2@example.com"])
    #expect(filtered.total == 1)
  }

  @Test func getsAUserByIDWithGoTruesAnswersForBadIDs() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    #expect(try engine.user(id: session.user.id).email == "test@example.com")
    let malformed = failure(of: { _ = try engine.user(id: "nope") })
    #expect(
      malformed?.apiError
        == GoTrueAPIError(status: 404, code: .validationFailed, message: "user_id must be an UUID"))
    let missing = failure(of: { _ = try engine.user(id: "6f1c2b3a-4d5e-4f60-8a9b-0c1d2e3f4a5b") })
    #expect(
      missing?.apiError
        == GoTrueAPIError(status: 404, code: .userNotFound, message: "User not found"))
  }

  @Test func updatesMergeMetadataKeyByKey() async throws {
    let engine = try makeEngine(clock: clock)
    let user = try await engine.createUser(
      GoTrueAdminUserAttributes(
        email: "ada@example.com", userMetadata: ["a": .number(1), "b": .number(2)]))
    let updated = try await engine.updateUser(
      id: user.id,
      GoTrueAdminUserAttributes(
        role: "editor", email: "lovelace@example.com", password: "Analytical1", emailConfirm: true,
        userMetadata: ["a": .null, "c": .number(3)], appMetadata: ["tier": .string("gold")]))
    #expect(updated.email == "lovelace@example.com")
    #expect(updated.userMetadata == ["b": .number(2), "c": .number(3)])
    #expect(updated.appMetadata["tier"] == .string("gold"))
    #expect(updated.appMetadata["provider"] == .string("email"))
    #expect(updated.role == "editor")
    #expect(updated.emailConfirmedAt == testEpoch)
    _ = try await engine.signIn(email: "lovelace@example.com", password: "Analytical1")

    let weak = await failure {
      try await engine.updateUser(id: user.id, GoTrueAdminUserAttributes(password: "12345"))
    }
    #expect(weak?.apiError?.code == .weakPassword, "updates hold passwords to the minimum")
    let clash = await failure {
      try await engine.updateUser(id: user.id, GoTrueAdminUserAttributes(email: "test@example.com"))
    }
    #expect(clash?.apiError?.code == .emailExists)
  }

  @Test func aBanStopsSignInsUntilItEndsOrIsLifted() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let banned = try await engine.updateUser(
      id: session.user.id, GoTrueAdminUserAttributes(banDuration: "1h30m"))
    #expect(banned.bannedUntil == testEpoch.addingTimeInterval(5_400))

    let signIn = await failure {
      try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    }
    #expect(
      signIn?.apiError == GoTrueAPIError(status: 400, code: .userBanned, message: "User is banned"))
    let user = await failure { try await engine.user(accessToken: session.accessToken) }
    #expect(user?.apiError?.code == .userBanned)
    let refresh = await failure { try await engine.refresh(refreshToken: session.refreshToken) }
    #expect(refresh?.apiError?.message == "Invalid Refresh Token: User Banned")

    _ = try await engine.updateUser(
      id: session.user.id, GoTrueAdminUserAttributes(banDuration: "none"))
    _ = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
  }

  @Test(.readsSQLiteTables) func deletesHardOrSoftly() async throws {
    let engine = try makeEngine(clock: clock)
    let test = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    try engine.deleteUser(id: test.user.id)
    #expect(failure(of: { _ = try engine.user(id: test.user.id) })?.apiError?.code == .userNotFound)
    #expect(try engine.rows("SELECT count(*) FROM sessions")[0][0] == "0")

    let other = try await engine.createUser(
      GoTrueAdminUserAttributes(
        email: "soft@example.com", password: "Password1", emailConfirm: true))
    try engine.deleteUser(id: other.id, softly: true)
    let kept = try engine.user(id: other.id)
    #expect(kept.deletedAt == testEpoch)
    #expect(kept.email != "soft@example.com")
    #expect(kept.userMetadata.isEmpty)
    let signIn = await failure {
      try await engine.signIn(email: "soft@example.com", password: "Password1")
    }
    #expect(signIn?.apiError?.code == .invalidCredentials)
    // The address is free again.
    _ = try await engine.createUser(GoTrueAdminUserAttributes(email: "soft@example.com"))
  }

  @Test func goDurations() {
    #expect(GoDuration.seconds("24h") == 86_400)
    #expect(GoDuration.seconds("1h30m") == 5_400)
    #expect(GoDuration.seconds("1.5s") == 1.5)
    #expect(GoDuration.seconds("-2m") == -120)
    #expect(GoDuration.seconds("0") == 0)
    #expect(GoDuration.seconds("300ms") == 0.3)
    for bad in ["", "h", "10", "1d", "1h-", "ten", "1..5s"] {
      #expect(GoDuration.seconds(bad) == nil, "\(bad)")
    }
  }
}
