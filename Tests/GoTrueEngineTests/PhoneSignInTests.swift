import Clocks
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Phone sign-in as GoTrue does it with its phone provider on: a password and codes texted to
/// the number, which land in the engine's SMS outbox.
struct PhoneSignInTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func engine(_ configure: (inout EngineConfiguration) -> Void = { _ in }) throws
    -> EmbeddedGoTrue
  {
    try makeEngine(clock: clock) {
      $0.phoneProvider = true
      configure(&$0)
    }
  }

  @Test func aSignupTextsItsConfirmationAndTheCodeSignsIn() async throws {
    let engine = try engine()
    guard
      case .user(let waiting) = try await engine.signUp(
        phone: "+1 555 555 0100", password: "Password123", data: ["team": .string("blue")])
    else { throw PhoneTestFailure("a phone signup without autoconfirm answers the user") }
    #expect(waiting.phone == "15555550100" && waiting.email == "")
    #expect(waiting.phoneConfirmedAt == nil && waiting.confirmationSentAt == testEpoch)
    #expect(waiting.appMetadata["providers"] == .array([.string("phone")]))
    #expect(waiting.userMetadata["team"] == .string("blue"))
    #expect(waiting.identities?.map(\.provider) == ["phone"])
    let text = try #require(engine.smsOutbox.newest(to: "15555550100", kind: .otp))
    #expect(text.recipient == "+15555550100" && text.code.count == 6)
    #expect(text.body == "Your code is \(text.code)" && text.sentAt == testEpoch)
    #expect(engine.outbox.messages.isEmpty, "nothing was emailed")

    let early = await failure {
      try await engine.signIn(phone: "+15555550100", password: "Password123")
    }
    #expect(early?.apiError?.code == .phoneNotConfirmed)
    #expect(early?.apiError?.message == "Phone not confirmed")

    let session = try await engine.verifyPhone(.sms, phone: "+15555550100", code: text.code)
    #expect(session.user.phoneConfirmedAt == testEpoch)
    #expect(session.user.identities?.first?.identityData?["phone_verified"] == .bool(true))
    let reused = await failure {
      try await engine.verifyPhone(.sms, phone: "15555550100", code: text.code)
    }
    #expect(reused?.apiError?.code == .otpAlreadyUsed)
    let signedIn = try await engine.signIn(phone: "+1 5555550100", password: "Password123")
    #expect(signedIn.user.id == waiting.id)
    let wrong = await failure {
      try await engine.signIn(phone: "15555550100", password: "Wrong123")
    }
    #expect(wrong?.apiError?.code == .invalidCredentials)
  }

  @Test func codesAreKeptAsKeyedHashesOnly() async throws {
    let engine = try engine()
    _ = try await engine.signUp(phone: "15555550100", password: "Password123", data: [:])
    let code = try #require(engine.smsOutbox.messages.first?.code)
    // Where each store keeps codes: SQLite's one_time_tokens, PostgreSQL's authflow.codes.
    let rows = try engine.rows(
      testsRunOnPostgres
        ? "SELECT kind, encode(token_hash, 'hex'), (link_hash IS NULL)::int::text, "
          + "(expires_at - created_at)::text FROM authflow.codes"
        : "SELECT kind, hex(token_hash), link_hash IS NULL, expires_at - created_at "
          + "FROM one_time_tokens")
    #expect(rows.count == 1)
    #expect(rows[0][0] == "sms" && rows[0][1].count == 64 && rows[0][2] == "1")
    #expect(rows[0][3] == "60000", "GoTrue's SMS_OTP_EXP: a minute")
    let asHex = code.utf8.map { String($0, radix: 16) }.joined()
    #expect(!rows[0][1].lowercased().contains(asHex))
  }

  @Test func aCodeExpiresAfterAMinute() async throws {
    let engine = try engine()
    _ = try await engine.signUp(phone: "15555550100", password: "Password123", data: [:])
    let code = try #require(engine.smsOutbox.messages.first?.code)
    clock.advance(by: 61)
    let late = await failure {
      try await engine.verifyPhone(.sms, phone: "15555550100", code: code)
    }
    #expect(late?.apiError?.code == .otpExpired)
    let wrong = await failure {
      try await engine.verifyPhone(.sms, phone: "15555550100", code: "00000")
    }
    #expect(wrong?.apiError?.code == .otpInvalid)
    #expect(wrong?.apiError?.message == "Token has expired or is invalid")
  }

  @Test func anOTPSignsAPhoneUpAndThenIn() async throws {
    let engine = try engine()
    let first = try await engine.sendSignInCode(phone: "+15555550100", createUser: true, data: [:])
    #expect(first == nil, "a new number gets its confirmation, answered {} as GoTrue does")
    let confirmation = try #require(engine.smsOutbox.newest(to: "+15555550100"))
    _ = try await engine.verifyPhone(.sms, phone: "+15555550100", code: confirmation.code)
    let noPassword = await failure {
      try await engine.signIn(phone: "15555550100", password: "Password123")
    }
    #expect(noPassword?.apiError?.code == .invalidCredentials)

    clock.advance(by: 61)
    let messageID = try await engine.sendSignInCode(
      phone: "15555550100", createUser: false, data: [:])
    let signIn = try #require(engine.smsOutbox.newest(to: "15555550100"))
    #expect(messageID == "\(signIn.id)" && signIn.id != confirmation.id)
    let session = try await engine.verifyPhone(.sms, phone: "15555550100", code: signIn.code)
    #expect(session.user.phone == "15555550100")

    let unknown = await failure {
      try await engine.sendSignInCode(phone: "15555550199", createUser: false, data: [:])
    }
    #expect(unknown?.apiError?.code == .otpDisabled)
    let whatsapp = await failure {
      try await engine.sendSignInCode(
        phone: "15555550100", createUser: true, data: [:], channel: "whatsapp")
    }
    #expect(whatsapp?.apiError?.code == .validationFailed)
  }

  @Test func aSecondCodeWithinTheIntervalIsRefusedInGoTruesWords() async throws {
    let engine = try engine()
    _ = try await engine.sendSignInCode(phone: "15555550100", createUser: true, data: [:])
    clock.advance(by: 20)
    let soon = await failure {
      try await engine.sendSignInCode(phone: "15555550100", createUser: true, data: [:])
    }
    #expect(soon?.apiError?.status == 429)
    #expect(soon?.apiError?.code == .overSMSSendRateLimit)
    #expect(
      soon?.apiError?.message
        == "For security purposes, you can only request this after 40 seconds.")
    let elsewhere = try await engine.sendSignInCode(
      phone: "15555550101", createUser: true, data: [:])
    #expect(elsewhere == nil, "another number waits on its own interval")
    clock.advance(by: 41)
    _ = try await engine.resendText(.sms, phone: "15555550100")
    #expect(engine.smsOutbox.messages.count == 3)
  }

  @Test func theHourlyBudgetCountsSentMessagesButNotFixedCodes() async throws {
    let engine = try engine {
      $0.rateLimits.smsSent = EngineConfiguration.Budget(capacity: 2, period: 3_600)
      $0.testCodes = ["15555550109": "4242424242"]
    }
    for number in ["15555550100", "15555550101"] {
      _ = try await engine.sendSignInCode(phone: number, createUser: true, data: [:])
    }
    let over = await failure {
      try await engine.sendSignInCode(phone: "15555550102", createUser: true, data: [:])
    }
    #expect(over?.apiError?.code == .overSMSSendRateLimit)
    #expect(over?.apiError?.message == "SMS rate limit exceeded")
    let undone = try engine.withDatabase { database throws(GoTrueAPIError) in
      try database.user(phone: "15555550102")?.id
    }
    #expect(undone == nil, "the refusal undid the signup")
    _ = try await engine.signUp(phone: "15555550109", password: "Password123", data: [:])
    #expect(engine.smsOutbox.newest(to: "15555550109")?.code == "4242424242")
    clock.advance(by: 61)
    let messageID = try await engine.resendText(.sms, phone: "15555550109")
    #expect(messageID == "test-otp")
    _ = try await engine.verifyPhone(.sms, phone: "15555550109", code: "4242424242")
  }
}
