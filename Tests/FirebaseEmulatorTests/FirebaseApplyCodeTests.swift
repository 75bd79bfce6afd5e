import FirebaseEmulator
import Foundation
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// Spending codes: `resetPassword` (looking and spending), `accounts:update` with `oobCode`,
/// and the way back from an email change (`initialEmail`, `RECOVER_EMAIL`).
struct FirebaseApplyCodeTests {
  @Test func lookingAtACodeSpendsNothingAndOnlyAResetCodeSetsAPassword() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("alice@example.com")
    let codes = [
      try emulation.resetCode("alice@example.com"),
      try emulation.sentCode(
        .of("VERIFY_EMAIL", idToken: session.idToken, returnLink: true, privileged: true)),
      try emulation.emailSignInCode("nobody@example.com"),
      try emulation.sentCode(
        .of("VERIFY_AND_CHANGE_EMAIL", newEmail: "bob@example.com", idToken: session.idToken)),
    ]
    for code in codes {
      let info = try emulation.inspect(code: code.code)
      #expect(info.type == code.type && info.email == code.email && info.link == code.link)
      #expect(info.newEmail == (code.type == .verifyAndChangeEmail ? "bob@example.com" : nil))
    }
    #expect(try emulation.codes() == codes, "looking spends nothing")
    for code in codes.dropFirst() {
      #expect(
        await firebaseFailure {
          try await emulation.resetPassword(code: code.code, newPassword: "secret456")
        } == .badRequest(.invalidOOBCode))
    }
    #expect(
      await firebaseFailure {
        try await emulation.resetPassword(code: codes[0].code, newPassword: "12345")
      } == .badRequest(.weakPassword, "Password should be at least 6 characters"))
    #expect(try emulation.codes() == codes, "refused resets spend nothing")
    _ = try await emulation.resetPassword(code: codes[0].code, newPassword: "secret456")
    _ = try await emulation.signIn(email: "alice@example.com", password: "secret456").signedIn()
  }

  @Test(.readsSQLiteTables) func aResetCodeOfAnAddressThatMovedIsSpentForNothing() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("alice@example.com")
    let code = try emulation.resetCode("alice@example.com")
    try emulation.changeEmail(of: session.account.id, to: "carol@example.com")
    #expect(
      await firebaseFailure {
        try await emulation.resetPassword(code: code.code, newPassword: "secret456")
      } == .badRequest(.invalidOOBCode))
    #expect(try emulation.codes().map(\.type) == [.recoverEmail], "the reset code is spent")
  }

  @Test func verificationCodesVerifyOrMoveTheAccount() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("alice@example.com")
    let verify = try emulation.sentCode(
      .of("VERIFY_EMAIL", idToken: session.idToken, returnLink: true, privileged: true))
    let applied = try emulation.applyCode(verify.code)
    #expect(applied.type == .verifyEmail && applied.newEmail == nil)
    #expect(applied.account.emailVerified && applied.account.email == "alice@example.com")
    #expect(
      await firebaseFailure { try emulation.applyCode(verify.code) }
        == .badRequest(.invalidOOBCode))

    let change = try emulation.sentCode(
      .of("VERIFY_AND_CHANGE_EMAIL", newEmail: "bob@example.com", idToken: session.idToken))
    var renamed = FirebaseAccountChanges()
    renamed.emailVerified = false
    _ = try await emulation.update(id: session.account.id, renamed)
    let moved = try emulation.applyCode(change.code)
    #expect(moved.newEmail == "bob@example.com")
    #expect(moved.account.email == "bob@example.com" && moved.account.emailVerified)
    #expect(moved.account.id == session.account.id)
    #expect(try emulation.account(idToken: session.idToken).email == "bob@example.com")
    _ = try await emulation.signIn(email: "bob@example.com", password: "secret123").signedIn()
    #expect(try emulation.codes().isEmpty, "no RECOVER_EMAIL for a verified change")
  }

  @Test func resetAndSignInCodesAreNotAppliedNorSpent() async throws {
    let emulation = try makeEmulation()
    let reset = try emulation.resetCode("test@example.com")
    let signIn = try emulation.emailSignInCode("test@example.com")
    #expect(
      await firebaseFailure { try emulation.applyCode(reset.code) }
        == notImplemented("PASSWORD_RESET"))
    #expect(
      await firebaseFailure { try emulation.applyCode(signIn.code) }
        == notImplemented("EMAIL_SIGNIN"))
    #expect(try emulation.codes() == [reset, signIn])
    #expect(await firebaseFailure { try emulation.applyCode("") } == .badRequest(.invalidOOBCode))
  }

  @Test func aTakenNewAddressIsEmailExistsAndSpendsTheCode() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("alice@example.com")
    let change = try emulation.sentCode(
      .of("VERIFY_AND_CHANGE_EMAIL", newEmail: "bob@example.com", idToken: session.idToken))
    _ = try await emulation.newUser("bob@example.com")
    #expect(
      await firebaseFailure { try emulation.applyCode(change.code) } == .badRequest(.emailExists))
    #expect(try emulation.codes().isEmpty, "spent before the check, as in the emulator")
    #expect(try emulation.account(idToken: session.idToken).email == "alice@example.com")
  }

  @Test(.readsSQLiteTables) func anEmailChangeKeepsTheFirstAddressAndMailsTheWayBack() async throws
  {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("alice@example.com")
    let id = session.account.id
    try emulation.changeEmail(of: id, to: "bob@example.com")
    try emulation.changeEmail(of: id, to: "carol@example.com")
    #expect(
      try emulation.engine.column("SELECT initial_email FROM users WHERE id = '\(id)'") == [
        "alice@example.com"
      ])
    let codes = try emulation.codes()
    #expect(codes.map(\.type) == [.recoverEmail, .recoverEmail])
    #expect(codes.map(\.email) == ["alice@example.com", "alice@example.com"], "always the first")
    #expect(codes[0].link.contains("mode=recoverEmail&lang=en&oobCode="))
    let mail = try #require(emulation.engine.outbox.newest(to: "alice@example.com"))
    #expect(mail.kind == .emailChange)
    #expect(mail.subject == "Your sign-in email was changed for demo-app")
    #expect(
      mail.text.contains("was changed to carol@example.com") && mail.text.contains(codes[1].link))

    let recovered = try emulation.applyCode(codes[0].code)
    #expect(recovered.type == .recoverEmail && recovered.newEmail == nil)
    #expect(recovered.account.email == "alice@example.com" && recovered.account.emailVerified)
    _ = try await emulation.signIn(email: "alice@example.com", password: "secret123").signedIn()
    // The other code would take the account to where it already is: the address is taken.
    #expect(
      await firebaseFailure { try emulation.applyCode(codes[1].code) } == .badRequest(.emailExists))
    #expect(try emulation.codes().isEmpty)
  }

  @Test(.readsSQLiteTables) func theWayBackIsRefusedWhenAnotherAccountTookTheAddress() async throws
  {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("alice@example.com")
    try emulation.changeEmail(of: session.account.id, to: "bob@example.com")
    let recover = try #require(try emulation.codes().first)
    _ = try await emulation.newUser("alice@example.com")
    #expect(
      await firebaseFailure { try emulation.applyCode(recover.code) } == .badRequest(.emailExists))
  }

  @Test(.readsSQLiteTables) func anAnonymousChangeAndAnAccountWithoutAnAddressKeepNoWayBack()
    async throws
  {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("alice@example.com")
    try emulation.changeEmail(of: session.account.id, to: "bob@example.com", anonymous: true)
    try emulation.engine.execute("UPDATE users SET email = NULL WHERE email = 'test@example.com'")
    let id = try #require(
      try emulation.engine.column("SELECT id FROM users WHERE email IS NULL").first)
    try emulation.changeEmail(of: id, to: "dora@example.com")
    #expect(try emulation.codes().isEmpty)
    #expect(
      try emulation.engine.column("SELECT count(*) FROM users WHERE initial_email IS NOT NULL") == [
        "0"
      ])
  }
}
