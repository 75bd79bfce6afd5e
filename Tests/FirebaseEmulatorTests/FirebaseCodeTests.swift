import AuthCrypto
import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// Out-of-band codes: opaque, hashed at rest in their own table, single-use, several waiting at
/// once, listed from memory, mailed through the outbox, and under none of GoTrue's limits.
struct FirebaseCodeTests {
  @Test func aPasswordResetCodeIsMailedListedAndWorksOnce() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let old = try await emulation.signIn(email: "unverified@example.com", password: "Test1234")
      .signedIn()
    // Tokens of the very second the password changes stay valid, as in the emulator.
    clock.advance(by: 1)
    let sent = try emulation.sendCode(.of("PASSWORD_RESET", email: "Unverified@Example.com"))
    #expect(sent.email == "unverified@example.com")
    let code = try #require(sent.code)
    #expect(code.type == .passwordReset && code.newEmail == nil)
    #expect(code.code.count == 54)
    #expect(code.code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    #expect(
      code.link
        == "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=\(code.code)&apiKey=fake-api-key"
    )
    let mail = try #require(emulation.engine.outbox.newest(to: "unverified@example.com"))
    #expect(mail.kind == .recovery)
    #expect(mail.subject == "Reset your password for demo-app")
    #expect(mail.link == code.link && mail.code == code.code)
    #expect(mail.text.contains(code.link))
    #expect(try emulation.codes() == [code])
    #expect(
      try emulation.inspect(code: code.code)
        == FirebaseCodeInfo(
          type: .passwordReset, email: "unverified@example.com", newEmail: nil, link: code.link))

    let reset = try await emulation.resetPassword(code: code.code, newPassword: "brand-new-pass")
    #expect(reset.email == "unverified@example.com" && reset.type == .passwordReset)
    let account = try await emulation.signIn(
      email: "unverified@example.com", password: "brand-new-pass"
    ).signedIn().account
    #expect(account.emailVerified, "the code proved the address")
    #expect(
      await firebaseFailure { try emulation.account(idToken: old.idToken) }
        == .badRequest(.tokenExpired))
    #expect(
      await firebaseFailure {
        try await emulation.resetPassword(code: code.code, newPassword: "again-new-pass")
      } == .badRequest(.invalidOOBCode))
    #expect(try emulation.codes().isEmpty, "used codes leave the list")
  }

  @Test(.readsSQLiteTables) func codesAreKeyedHashesInTheirOwnTableAndNeverOpenVerify() async throws
  {
    let emulation = try makeEmulation()
    let code = try emulation.resetCode("test@example.com")
    let user = try #require(
      try emulation.engine.column("SELECT id FROM users WHERE email = 'test@example.com'").first)
    let stored = try emulation.engine.rows(
      """
      SELECT hex(code_hash), request_type, email, ifnull(new_email, '-'), user_id,
        ifnull(continue_url, '-'), expires_at - created_at, ifnull(used_at, '-')
      FROM oob_codes
      """)
    let hash = HMAC.sha256(
      key: emulation.engine.secrets.codes, message: Array("oob:\(code.code)".utf8))
    #expect(
      stored == [
        [
          hash.hexString.uppercased(), "PASSWORD_RESET", "test@example.com", "-", user, "-",
          "86400000", "-",
        ]
      ])
    #expect(try emulation.engine.column("SELECT count(*) FROM one_time_tokens") == ["0"])
    let everything = try emulation.engine.rows(
      "SELECT code_hash, request_type, email, new_email, user_id, continue_url FROM oob_codes"
    ).flatMap { $0 }
    #expect(!everything.contains { $0.contains(code.code) }, "no plaintext at rest")
    let verify = await failure {
      try await emulation.engine.verifyLink(type: .recovery, tokenHash: code.code)
    }
    #expect(verify?.apiError?.status == 403, "a Firebase code is no GoTrue link")
  }

  @Test(.readsSQLiteTables) func severalCodesWaitAtOnceInOrderAndExpire() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let emulation = try makeEmulation(clock: clock)
    let first = try emulation.resetCode("test@example.com")
    let signIn = try emulation.emailSignInCode("new@example.com")
    let second = try emulation.resetCode("test@example.com")
    #expect(try emulation.codes() == [first, signIn, second], "insertion order, none replaced")
    #expect(try emulation.inspect(code: first.code).type == .passwordReset)
    clock.advance(by: 86_399)
    #expect(try emulation.inspect(code: second.code).email == "test@example.com")
    clock.advance(by: 1)
    for code in [first, signIn, second] {
      #expect(
        await firebaseFailure { try emulation.inspect(code: code.code) }
          == .badRequest(.expiredOOBCode))
    }
    #expect(try emulation.codes().isEmpty)
    // A day later still, the next code made sweeps the expired rows away.
    clock.advance(by: 86_401)
    _ = try emulation.resetCode("test@example.com")
    #expect(try emulation.engine.column("SELECT count(*) FROM oob_codes") == ["1"])
    #expect(
      await firebaseFailure { try emulation.inspect(code: first.code) }
        == .badRequest(.invalidOOBCode))
  }

  @Test func codesWaitOnNoEmailLimitWhileGoTruesRoutesKeepTheirs() async throws {
    let emulation = try makeEmulation { configuration in
      configuration.rateLimits.emailSent = .init(capacity: 2, period: 3_600)
    }
    let session = try await emulation.newUser("fresh@example.com")
    _ = try emulation.sendCode(.of("VERIFY_EMAIL", idToken: session.idToken))
    for _ in 0..<5 {
      _ = try emulation.sendCode(.of("PASSWORD_RESET", email: "fresh@example.com"))
      _ = try emulation.sendCode(.of("EMAIL_SIGNIN", email: "fresh@example.com"))
    }
    #expect(emulation.engine.outbox.messages.count == 11)
    #expect(try emulation.codes().count == 11)
    // GoTrue's interval and hourly budget never saw those emails: its first recover goes out,
    // the next waits on the interval.
    try await emulation.engine.recover(email: "fresh@example.com")
    #expect(emulation.engine.outbox.messages.count == 12)
    let again = await failure { try await emulation.engine.recover(email: "fresh@example.com") }
    #expect(again?.apiError?.code == .overEmailSendRateLimit)
  }

  @Test func aDeletedAccountsCodesGoWithItButNotEmailSignInCodes() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("gone@example.com")
    let verify = try emulation.sentCode(.of("VERIFY_EMAIL", idToken: session.idToken))
    let signIn = try emulation.emailSignInCode("gone@example.com")
    try emulation.deleteAccount(idToken: session.idToken)
    #expect(try emulation.codes() == [signIn])
    #expect(
      await firebaseFailure { try emulation.applyCode(verify.code) }
        == .badRequest(.invalidOOBCode))
    let again = try emulation.signInWithEmailLink(
      email: "gone@example.com", code: signIn.code, idToken: nil)
    #expect(again.isNewUser)
    #expect(try again.outcome.signedIn().account.id != session.account.id)
  }
}
