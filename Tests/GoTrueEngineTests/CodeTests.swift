import AuthCrypto
import Clocks
import Foundation
import GoTrue
import PrivateFiles
import TestSupport
import Testing

@testable import GoTrueEngine

/// Emailed codes: recover, resend, verify; single use, hashed, 24-hour lifetime.
struct CodeTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  @Test func recoverSendsACodeToAKnownEmailOnly() async throws {
    let engine = try makeEngine(clock: clock)
    try await engine.recover(email: "test@example.com")
    try await engine.recover(email: "nobody@example.com")

    #expect(engine.outbox.messages.count == 1)
    let message = try #require(engine.outbox.newest(to: "test@example.com", kind: .recovery))
    #expect(message.subject == "Reset your password")
    let token = engine.linkToken(email: "test@example.com", code: message.code)
    #expect(message.link == "authflow://auth/forgot-password?token=\(token)&type=recovery")
    #expect(engine.outbox.newest(to: "nobody@example.com") == nil)
  }

  @Test func recoverAnswersKnownAndUnknownEmailsAlike() async throws {
    let engine = try makeEngine(clock: clock)
    for email in ["test@example.com", "nobody@example.com"] {
      #expect(await failure { try await engine.recover(email: email) } == nil)
      let again = await failure { try await engine.recover(email: email) }
      #expect(
        again?.apiError
          == GoTrueAPIError(
            status: 429, code: .overEmailSendRateLimit,
            message: "For security purposes, you can only request this after 60 seconds."),
        "\(email)")
    }
    clock.advance(by: 45)
    let later = await failure { try await engine.recover(email: "nobody@example.com") }
    #expect(later?.apiError?.message.hasSuffix("after 15 seconds.") == true)
  }

  @Test func recoveryCodeSignsInOnceAndConfirmsTheEmail() async throws {
    let engine = try makeEngine(clock: clock)
    try await engine.recover(email: "unverified@example.com")
    let code = try #require(engine.outbox.newest(to: "unverified@example.com")).code

    let session = try await engine.verify(
      type: .recovery, email: "unverified@example.com", token: code)
    #expect(session.user.emailConfirmedAt == testEpoch)

    let reused = await failure {
      try await engine.verify(type: .recovery, email: "unverified@example.com", token: code)
    }
    #expect(reused?.apiError?.code == .otpAlreadyUsed)
  }

  @Test func codesExpireAfter24Hours() async throws {
    let engine = try makeEngine(clock: clock)
    try await engine.recover(email: "test@example.com")
    let code = try #require(engine.outbox.newest(to: "test@example.com")).code

    clock.advance(by: 86_400)
    let expired = await failure {
      try await engine.verify(type: .recovery, email: "test@example.com", token: code)
    }
    #expect(expired?.apiError?.code == .otpExpired)
    #expect(expired?.apiError?.status == 403)
  }

  @Test func codeJustBeforeExpiryStillWorks() async throws {
    let engine = try makeEngine(clock: clock)
    try await engine.recover(email: "test@example.com")
    let code = try #require(engine.outbox.newest(to: "test@example.com")).code
    clock.advance(by: 86_399)
    _ = try await engine.verify(type: .recovery, email: "test@example.com", token: code)
  }

  @Test func wrongCodesAndUnknownEmailsAreIncorrect() async throws {
    let engine = try makeEngine(clock: clock)
    try await engine.recover(email: "test@example.com")
    let code = try #require(engine.outbox.newest(to: "test@example.com")).code
    let wrong = code == "000000" ? "000001" : "000000"
    for (email, token) in [
      ("test@example.com", wrong), ("nobody@example.com", code), ("test@example.com", "12345"),
      ("test@example.com", "abcdef"),
    ] {
      let failure = await failure {
        try await engine.verify(type: .recovery, email: email, token: token)
      }
      #expect(failure?.apiError?.code == .otpInvalid, "\(email) \(token)")
    }
    // A confirmation-type verify does not accept a recovery code.
    let wrongType = await failure {
      try await engine.verify(type: .signup, email: "test@example.com", token: code)
    }
    #expect(wrongType?.apiError?.code == .otpInvalid)
    _ = try await engine.verify(type: .email, email: "test@example.com", token: code)
  }

  @Test func aNewCodeReplacesTheOldOne() async throws {
    let engine = try makeEngine(clock: clock)
    try await engine.recover(email: "test@example.com")
    let old = try #require(engine.outbox.newest(to: "test@example.com")).code
    clock.advance(by: 60)
    try await engine.recover(email: "test@example.com")
    let new = try #require(engine.outbox.newest(to: "test@example.com")).code
    if old != new {
      let stale = await failure {
        try await engine.verify(type: .recovery, email: "test@example.com", token: old)
      }
      #expect(stale?.apiError?.code == .otpInvalid)
    }
    _ = try await engine.verify(type: .recovery, email: "test@example.com", token: new)
  }

  @Test func confirmationLinkConfirmsOnceThenSaysAlreadyVerified() async throws {
    let engine = try makeEngine(clock: clock)
    _ = try await engine.signUp(email: "new@example.com", password: "Password123", data: [:])
    let code = try #require(engine.outbox.newest(to: "new@example.com")).code

    let session = try await engine.verify(type: .signup, email: "new@example.com", token: code)
    #expect(session.user.emailConfirmedAt == testEpoch)
    _ = try await engine.signIn(email: "new@example.com", password: "Password123")

    let again = await failure {
      try await engine.verify(type: .signup, email: "new@example.com", token: code)
    }
    #expect(again?.apiError?.code == .otpAlreadyUsed)
  }

  @Test func expiredConfirmationSaysSo() async throws {
    let engine = try makeEngine(clock: clock)
    _ = try await engine.signUp(email: "new@example.com", password: "Password123", data: [:])
    let code = try #require(engine.outbox.newest(to: "new@example.com")).code
    clock.advance(by: 86_401)
    let failure = await failure {
      try await engine.verify(type: .signup, email: "new@example.com", token: code)
    }
    #expect(failure?.apiError?.code == .otpExpired)
  }

  @Test func resendOnlyMailsAccountsWaitingForConfirmation() async throws {
    let engine = try makeEngine(clock: clock)
    try await engine.resend(type: .signup, email: "unverified@example.com")
    try await engine.resend(type: .signup, email: "test@example.com")
    try await engine.resend(type: .signup, email: "nobody@example.com")
    #expect(engine.outbox.messages.map(\.recipient) == ["unverified@example.com"])
    let code = try #require(engine.outbox.newest(to: "unverified@example.com")).code
    _ = try await engine.verify(type: .signup, email: "unverified@example.com", token: code)
    _ = try await engine.signIn(email: "unverified@example.com", password: "Test1234")

    let wrongType = await failure { try await engine.resend(type: .recovery, email: "a@b.co") }
    #expect(wrongType?.apiError?.code == .validationFailed)
  }

  @Test func codesAreStoredOnlyAsKeyedHashes() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    let engine = try makeEngine(location: .file(path), clock: clock)
    try await engine.recover(email: "test@example.com")
    let code = try #require(engine.outbox.newest(to: "test@example.com")).code

    let rows = try engine.rows("SELECT user_id, kind, hex(token_hash) FROM one_time_tokens")
    #expect(rows.count == 1)
    #expect(!rows[0].joined().contains(code))
    let stored = try engine.rows("SELECT hex(token_hash) FROM one_time_tokens")[0][0]
    #expect(stored != SHA256.hash(code).hexString.uppercased(), "not a bare hash of the code")
    for file in [path, path + "-wal"] {
      let bytes = try #require(try PrivateFile.read(file))
      #expect(!String(decoding: bytes, as: UTF8.self).contains("token=\(code)"))
    }
  }

  @Test func malformedEmailIsAValidationFailure() async throws {
    let engine = try makeEngine()
    let failure = await failure { try await engine.recover(email: "nope") }
    #expect(failure?.apiError?.code == .validationFailed)
  }
}
