import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// `GET /reauthenticate` and the nonce a password change may need.
struct ReauthenticationTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  func secureEngine() throws -> EmbeddedGoTrue {
    try makeEngine(clock: clock) { $0.passwordChangeNeedsReauthentication = true }
  }

  @Test func aNonceGoesToAConfirmedAddressOnlyAndNotTooOften() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    try await engine.reauthenticate(accessToken: session.accessToken)
    let message = try #require(engine.outbox.newest(to: "test@example.com"))
    #expect(message.kind == .reauthentication)
    #expect(message.link.isEmpty)
    #expect(message.subject == "\(message.code) is your verification code")
    let user = try await engine.user(accessToken: session.accessToken)
    #expect(user.reauthenticationSentAt == testEpoch)

    let soon = await failure { try await engine.reauthenticate(accessToken: session.accessToken) }
    #expect(soon?.apiError?.code == .overEmailSendRateLimit)
    // Another kind of email to the same user is not held up by it.
    try await engine.recover(email: "test@example.com")

    let anonymous = try await engine.signUpAnonymously(data: [:])
    let noAddress = await failure {
      try await engine.reauthenticate(accessToken: anonymous.accessToken)
    }
    #expect(
      noAddress?.apiError
        == GoTrueAPIError(
          status: 400, code: .validationFailed,
          message: "Reauthentication requires the user to have an email or a phone number"))
  }

  @Test(.readsSQLiteTables) func anUnconfirmedAddressGetsNoNonce() async throws {
    let engine = try makeEngine(clock: clock) { $0.autoconfirm = true }
    let session = try await engine.signUpAnonymously(data: [:])
    _ = try engine.rows(
      "UPDATE users SET email = 'late@example.com', is_anonymous = 0 WHERE id = '\(session.user.id)'"
    )
    let refused = await failure {
      try await engine.reauthenticate(accessToken: session.accessToken)
    }
    #expect(
      refused?.apiError
        == GoTrueAPIError(
          status: 422, code: .emailNotConfirmed, message: "Please verify your email first."))
  }

  @Test func aRecentSessionChangesThePasswordWithoutANonce() async throws {
    let engine = try secureEngine()
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    clock.advance(by: 23 * 3_600)
    let fresh = try await engine.refresh(refreshToken: session.refreshToken)
    _ = try await engine.updatePassword("another-secret", accessToken: fresh.accessToken)
  }

  @Test func anOldSessionNeedsTheNonceOnce() async throws {
    let engine = try secureEngine()
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    clock.advance(by: 25 * 3_600)
    let old = try await engine.refresh(refreshToken: session.refreshToken)

    let missing = await failure {
      try await engine.updatePassword("another-secret", accessToken: old.accessToken)
    }
    #expect(
      missing?.apiError
        == GoTrueAPIError(
          status: 400, code: .reauthenticationNeeded,
          message: "Password update requires reauthentication"))
    let unsent = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(password: "another-secret", nonce: "123456"),
        accessToken: old.accessToken)
    }
    #expect(unsent?.apiError?.code == .reauthenticationNotValid)

    try await engine.reauthenticate(accessToken: old.accessToken)
    let nonce = try #require(engine.outbox.newest(to: "test@example.com")).code
    let wrong = nonce == "000000" ? "111111" : "000000"
    let refused = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(password: "another-secret", nonce: wrong), accessToken: old.accessToken
      )
    }
    #expect(
      refused?.apiError
        == GoTrueAPIError(
          status: 422, code: .reauthenticationNotValid, message: "Nonce has expired or is invalid"))
    _ = try await engine.updateUser(
      GoTrueUserAttributes(password: "another-secret", nonce: nonce), accessToken: old.accessToken)
    let reused = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(password: "a-third-secret", nonce: nonce), accessToken: old.accessToken
      )
    }
    #expect(reused?.apiError?.code == .reauthenticationNotValid)
  }

  @Test func guessingNoncesSpendsTheAccountsBudgetOfGuesses() async throws {
    let engine = try secureEngine()
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    clock.advance(by: 25 * 3_600)
    let old = try await engine.refresh(refreshToken: session.refreshToken)
    try await engine.reauthenticate(accessToken: old.accessToken)
    var answers: [GoTrueErrorCode?] = []
    for guess in 0..<31 {
      let nonce = String(format: "%06d", guess)
      answers.append(
        await failure {
          try await engine.updateUser(
            GoTrueUserAttributes(password: "another-secret", nonce: nonce),
            accessToken: old.accessToken)
        }?.apiError?.code)
    }
    #expect(answers.last == .overRequestRateLimit)
  }
}
