import AuthCrypto
import Clocks
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// `POST /signup` with confirmation on and off, and for emails that are taken.
struct SignUpTests {
  @Test func newEmailWithConfirmationReturnsTheUserAndSendsACode() async throws {
    let engine = try makeEngine()
    let response = try await engine.signUp(
      email: "New@Example.com", password: "Password123", data: ["first_name": .string("Ada")])

    guard case .user(let user) = response else {
      Issue.record("expected a user, got \(response)")
      return
    }
    #expect(user.email == "new@example.com")
    #expect(user.identities?.count == 1)
    #expect(user.emailConfirmedAt == nil)
    #expect(user.confirmationSentAt == testEpoch)
    // As GoTrue: the identity's claims, with the signup data.
    #expect(
      user.userMetadata == [
        "first_name": .string("Ada"), "email": .string("new@example.com"),
        "email_verified": .bool(false), "phone_verified": .bool(false), "sub": .string(user.id),
      ])
    #expect(user.identities?.first?.identityData == user.userMetadata)
    #expect(
      user.appMetadata == ["provider": .string("email"), "providers": .array([.string("email")])])
    let message = try #require(engine.outbox.newest(to: "new@example.com"))
    #expect(message.kind == .confirmation)
    #expect(message.code.count == 6 && message.code.allSatisfy(\.isNumber))
    #expect(message.subject == "Confirm your signup")
    // The link's token names the code on its own; no email rides in it.
    let token = engine.linkToken(email: "new@example.com", code: message.code)
    #expect(message.link == "authflow://auth/verify?token=\(token)&type=signup")
    #expect(try engine.accountCount() == 3)
  }

  @Test func autoconfirmSignsTheNewUserIn() async throws {
    let engine = try makeEngine { $0.autoconfirm = true }
    let response = try await engine.signUp(
      email: "new@example.com", password: "Password123", data: [:])

    guard case .session(let session) = response else {
      Issue.record("expected a session, got \(response)")
      return
    }
    #expect(session.user.email == "new@example.com")
    #expect(session.user.emailConfirmedAt == testEpoch)
    #expect(engine.outbox.messages.isEmpty)
  }

  @Test(.readsSQLiteTables) func confirmedEmailGetsAFakeUserAndNothingElse() async throws {
    let engine = try makeEngine()
    let response = try await engine.signUp(
      email: "test@example.com", password: "Whatever123", data: [:])

    guard case .user(let fake) = response else {
      Issue.record("expected a user, got \(response)")
      return
    }
    #expect(fake.identities == [])
    #expect(fake.email == "test@example.com")
    let real = try engine.rows("SELECT id FROM users WHERE email = 'test@example.com'")
    #expect(real.first?.first != fake.id, "the fake user has a new id")
    #expect(engine.outbox.messages.isEmpty, "no email is sent")
    #expect(try engine.accountCount() == 2)
    // The password did not change.
    _ = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
  }

  @Test func confirmedEmailWithAutoconfirmIsUserAlreadyExists() async throws {
    let engine = try makeEngine { $0.autoconfirm = true }
    let failure = await failure {
      try await engine.signUp(email: "test@example.com", password: "Whatever123", data: [:])
    }
    #expect(failure?.code == .userAlreadyExists)
  }

  @Test(.readsSQLiteTables) func unconfirmedEmailGetsItsConfirmationAgainAfterTheInterval()
    async throws
  {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let engine = try makeEngine(clock: clock)
    _ = try await engine.signUp(email: "new@example.com", password: "Password123", data: [:])
    let first = try #require(engine.outbox.newest(to: "new@example.com"))

    let tooSoon = await failure {
      try await engine.signUp(email: "new@example.com", password: "Other12345", data: [:])
    }
    #expect(tooSoon?.code == .overEmailSendRateLimit)
    guard case .api(let error)? = tooSoon else { return }
    #expect(error.status == 429)
    #expect(error.message == "For security purposes, you can only request this after 60 seconds.")

    clock.advance(by: 61)
    let again = try await engine.signUp(email: "new@example.com", password: "Other12345", data: [:])
    guard case .user(let user) = again else {
      Issue.record("expected a user")
      return
    }
    #expect(user.identities?.count == 1, "the real user, not a fake")
    let second = try #require(engine.outbox.newest(to: "new@example.com"))
    #expect(second.id == first.id + 1)
    #expect(try engine.accountCount() == 3)
    // The first password stays: a repeated signup never changes it.
    let stored = try engine.rows(
      "SELECT encrypted_password FROM users WHERE email = 'new@example.com'")
    #expect(Bcrypt.verify("Password123", against: stored[0][0]))
  }

  @Test(arguments: [
    (
      "not-an-email", "Password123", 400, GoTrueErrorCode.validationFailed,
      "Unable to validate email address: invalid format"
    ),
    ("a@b.co", "short", 422, .weakPassword, "Password should be at least 6 characters."),
    (
      "a@b.co", String(repeating: "a", count: 73), 400, .validationFailed,
      "Password cannot be longer than 72 characters"
    ),
    (
      "a@b.co", "nul\u{0}byte-password", 400, .validationFailed,
      "Password cannot be longer than 72 characters"
    ),
  ])
  func badInputIsRefusedTheWayGoTrueRefusesIt(
    email: String, password: String, status: Int, code: GoTrueErrorCode, message: String
  ) async throws {
    let engine = try makeEngine()
    let failure = await failure {
      try await engine.signUp(email: email, password: password, data: [:])
    }
    guard case .api(let error)? = failure else {
      Issue.record("expected an API error, got \(String(describing: failure))")
      return
    }
    #expect(error.status == status)
    #expect(error.code == code)
    #expect(error.message == message, "GoTrue's words, which never repeat the password")
    if code == .weakPassword { #expect(error.weakPasswordReasons == ["length"]) }
    #expect(try engine.accountCount() == 2)
  }

  @Test(.readsSQLiteTables) func passwordsAreStoredAsBcryptHashesAtTheConfiguredCost() async throws
  {
    let engine = try makeEngine { $0.hashCost = 5 }
    _ = try await engine.signUp(email: "new@example.com", password: "Password123", data: [:])
    let rows = try engine.rows("SELECT encrypted_password FROM users")
    #expect(rows.count == 3)
    for row in rows {
      #expect(row[0].hasPrefix("$2b$05$"), "\(row[0])")
      #expect(!row[0].contains("Password123"))
    }
    #expect(Bcrypt.cost(of: engine.secrets.decoyHash) == 5, "unknown emails cost the same")
  }
}

/// GoTrue's required characters (`PASSWORD_REQUIRED_CHARACTERS`): a new password holds a
/// character of each set, and a short one that lacks them is told both at once.
struct RequiredCharacterTests {
  private func refusal(_ password: String) async throws -> GoTrueAPIError? {
    let engine = try makeEngine {
      $0.passwordRequiredCharacters = ["abcdefghijklmnopqrstuvwxyz", "0123456789"]
    }
    let failure = await failure {
      try await engine.signUp(email: "ada@example.com", password: password, data: [:])
    }
    guard case .api(let error)? = failure else { return nil }
    return error
  }

  @Test func aPasswordWithACharacterOfEachSetIsTaken() async throws {
    #expect(try await refusal("secret123") == nil)
  }

  @Test func aPasswordLackingASetIsWeakInGoTruesWords() async throws {
    let error = try #require(try await refusal("SECRET123"))
    #expect(error.status == 422 && error.code == .weakPassword)
    #expect(
      error.message
        == "Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, "
        + "0123456789.")
    #expect(error.weakPasswordReasons == ["characters"])
  }

  @Test func aShortOneLackingASetIsToldBoth() async throws {
    let error = try #require(try await refusal("abc"))
    #expect(
      error.message
        == "Password should be at least 6 characters. Password should contain at least one "
        + "character of each: abcdefghijklmnopqrstuvwxyz, 0123456789.")
    #expect(error.weakPasswordReasons == ["length", "characters"])
  }
}
