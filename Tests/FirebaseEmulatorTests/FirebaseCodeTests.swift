import AuthCrypto
import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// Out-of-band codes: opaque, single-use, listed from memory, mailed through the outbox.
struct FirebaseCodeTests {
  @Test func aPasswordResetCodeIsMailedListedAndWorksOnce() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let old = try await emulation.signIn(email: "unverified@example.com", password: "Test1234")
    // Tokens of the very second the password changes stay valid, as in the emulator.
    clock.advance(by: 1)
    let sent = try #require(
      try emulation.sendPasswordReset(
        email: "Unverified@Example.com", mailed: true, continueURL: nil))
    #expect(sent.email == "unverified@example.com")
    #expect(sent.type == .passwordReset)
    #expect(sent.code.count == 54)
    #expect(sent.code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    #expect(
      sent.link
        == "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=\(sent.code)&apiKey=fake-api-key"
    )
    let mail = try #require(emulation.engine.outbox.newest(to: "unverified@example.com"))
    #expect(mail.kind == .recovery)
    #expect(mail.subject == "Reset your password for demo-app")
    #expect(mail.link == sent.link)
    #expect(mail.text.contains(sent.link))
    #expect(try emulation.codes() == [sent])
    #expect(try emulation.inspect(code: sent.code) == ("unverified@example.com", .passwordReset))

    #expect(
      try await emulation.resetPassword(code: sent.code, newPassword: "brand-new-pass")
        == "unverified@example.com")
    let account = try await emulation.signIn(
      email: "unverified@example.com", password: "brand-new-pass"
    ).account
    #expect(account.emailVerified, "the code proved the address")
    #expect(
      await firebaseFailure { try emulation.account(idToken: old.idToken) }
        == .badRequest(.tokenExpired))
    #expect(
      await firebaseFailure {
        try await emulation.resetPassword(code: sent.code, newPassword: "again-new-pass")
      } == .badRequest(.invalidOOBCode))
    #expect(try emulation.codes().isEmpty, "used codes leave the list")
  }

  @Test func resetChecksComeInTheEmulatorsOrder() async throws {
    let emulation = try makeEmulation()
    #expect(
      await firebaseFailure {
        try emulation.sendPasswordReset(email: "nobody@example.com", mailed: true, continueURL: nil)
      } == .badRequest(.emailNotFound))
    emulation.improvedEmailPrivacy = true
    #expect(
      try emulation.sendPasswordReset(email: "nobody@example.com", mailed: true, continueURL: nil)
        == nil)
    #expect(emulation.engine.outbox.messages.isEmpty)
    let sent = try #require(
      try emulation.sendPasswordReset(email: "test@example.com", mailed: false, continueURL: nil))
    #expect(emulation.engine.outbox.messages.isEmpty, "an admin's link is not mailed")
    #expect(
      await firebaseFailure {
        try await emulation.resetPassword(code: sent.code, newPassword: "123")
      }
        == .badRequest(.weakPassword, "Password should be at least 6 characters"))
    #expect(
      await firebaseFailure { try emulation.inspect(code: "wrong") } == .badRequest(.invalidOOBCode)
    )
    let failure = await firebaseFailure { try emulation.applyVerification(code: sent.code) }
    #expect(failure?.status == 501)
    #expect(failure?.message == "PASSWORD_RESET")
  }

  @Test func aVerificationCodeVerifiesTheEmail() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("v@example.com")
    let sent = try emulation.sendVerification(
      idToken: session.idToken, mailed: true, continueURL: "http://127.0.0.1:3000/done")
    #expect(sent.link.hasSuffix("&continueUrl=http%3A%2F%2F127.0.0.1%3A3000%2Fdone"))
    let mail = try #require(emulation.engine.outbox.newest(to: "v@example.com"))
    #expect(mail.subject == "Verify your email for demo-app")
    #expect(
      await firebaseFailure {
        try await emulation.resetPassword(code: sent.code, newPassword: "secret456")
      } == .badRequest(.invalidOOBCode))
    #expect(try emulation.inspect(code: sent.code) == ("v@example.com", .verifyEmail))
    #expect(try emulation.applyVerification(code: sent.code).emailVerified)
    #expect(
      await firebaseFailure { try emulation.applyVerification(code: sent.code) }
        == .badRequest(.invalidOOBCode))
    let byAdmin = try emulation.sendVerification(
      email: "TEST@example.com", mailed: false, continueURL: nil)
    #expect(byAdmin.email == "test@example.com")
    #expect(
      await firebaseFailure {
        try emulation.sendVerification(email: "nobody@example.com", mailed: false, continueURL: nil)
      } == .badRequest(.userNotFound))
    #expect(
      await firebaseFailure {
        try emulation.sendVerification(idToken: "", mailed: true, continueURL: nil)
      } == .badRequest(.invalidIDToken))
  }

  @Test func codesExpireAndANewOneReplacesTheWaitingOne() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let first = try #require(
      try emulation.sendPasswordReset(email: "test@example.com", mailed: false, continueURL: nil))
    let second = try #require(
      try emulation.sendPasswordReset(email: "test@example.com", mailed: false, continueURL: nil))
    #expect(try emulation.codes() == [second])
    #expect(
      await firebaseFailure { try emulation.inspect(code: first.code) }
        == .badRequest(.invalidOOBCode))
    clock.advance(by: 86_400)
    #expect(
      await firebaseFailure { try emulation.inspect(code: second.code) }
        == .badRequest(.expiredOOBCode))
    #expect(try emulation.codes().isEmpty)
  }

  @Test func aNewEmailVoidsCodesSentToTheOldOne() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("old@example.com")
    let sent = try emulation.sendVerification(
      idToken: session.idToken, mailed: false, continueURL: nil)
    var moved = FirebaseAccountChanges()
    moved.email = "new@example.com"
    _ = try await emulation.update(idToken: session.idToken, moved)
    #expect(
      await firebaseFailure { try emulation.applyVerification(code: sent.code) }
        == .badRequest(.invalidOOBCode))
  }

  @Test func codesAreStoredOnlyAsKeyedHashesAndNeverOpenVerify() async throws {
    let emulation = try makeEmulation()
    let sent = try #require(
      try emulation.sendPasswordReset(email: "test@example.com", mailed: false, continueURL: nil))
    let stored = try emulation.engine.rows(
      "SELECT hex(token_hash), hex(link_hash) FROM one_time_tokens")
    #expect(stored.count == 1)
    #expect(stored[0][1] == emulation.engine.oobHash(sent.code).hexString.uppercased())
    #expect(!stored.flatMap { $0 }.contains { $0.contains(sent.code) })
    let verify = await failure {
      try await emulation.engine.verifyLink(type: .recovery, tokenHash: sent.code)
    }
    #expect(verify?.apiError?.status == 403, "a Firebase code is no GoTrue link")
  }

  @Test func mailedCodesKeepTheEnginesEmailLimits() async throws {
    let emulation = try makeEmulation()
    _ = try emulation.sendPasswordReset(email: "test@example.com", mailed: true, continueURL: nil)
    let again = await firebaseFailure {
      try emulation.sendPasswordReset(email: "test@example.com", mailed: true, continueURL: nil)
    }
    #expect(again?.code == .tooManyAttempts)
    #expect(again?.detail == "For security purposes, you can only request this after 60 seconds.")
    _ = try emulation.sendPasswordReset(email: "test@example.com", mailed: false, continueURL: nil)
  }
}
