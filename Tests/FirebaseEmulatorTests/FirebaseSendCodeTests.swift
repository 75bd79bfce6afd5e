import FirebaseEmulator
import Foundation
import IdentityToolkit
import TestSupport
import Testing

@testable import GoTrueEngine

/// `sendOobCode`'s checks, type by type, in the emulator's order and words.
struct FirebaseSendCodeTests {
  @Test func theCommonChecksComeFirst() async throws {
    let emulation = try makeEmulation()
    let cases: [(FirebaseCodeRequest, IdentityToolkitError)] = [
      (.of(nil), .badRequest(.missingRequestType)),
      (.of(""), .badRequest(.missingRequestType)),
      (.of("OOB_REQ_TYPE_UNSPECIFIED", email: "a@b.co"), .badRequest(.missingRequestType)),
      (.of("PASSWORD_RESET", returnLink: true), .badRequest(.insufficientPermission)),
      (
        .of("RECOVER_EMAIL", continueURL: "noSchemeOrHost"),
        .badRequest(.invalidContinueURI, "((expected an absolute URI with valid scheme and host))")
      ),
      (
        .of("PASSWORD_RESET", continueURL: "https://evil.example/x"),
        .badRequest("UNAUTHORIZED_DOMAIN", "Domain not allowlisted by project")
      ),
      (.of("RECOVER_EMAIL", email: "test@example.com"), notImplemented("RECOVER_EMAIL")),
      (.of("OLD_EMAIL_AGREE"), notImplemented("OLD_EMAIL_AGREE")),
      (
        .of("REVERT_SECOND_FACTOR_ADDITION", privileged: true),
        notImplemented("REVERT_SECOND_FACTOR_ADDITION")
      ),
    ]
    for (request, expected) in cases {
      #expect(await firebaseFailure { try emulation.sendCode(request) } == expected, "\(request)")
    }
    #expect(try emulation.codes().isEmpty && emulation.engine.outbox.messages.isEmpty)
  }

  @Test(.readsSQLiteTables) func passwordResetAndEmailSignInNeedOnlyAnAddress() async throws {
    let emulation = try makeEmulation()
    #expect(
      await firebaseFailure { try emulation.sendCode(.of("PASSWORD_RESET", email: "")) }
        == .badRequest(.missingEmail))
    #expect(
      await firebaseFailure { try emulation.sendCode(.of("PASSWORD_RESET", email: "no@x.co")) }
        == .badRequest(.emailNotFound))
    emulation.improvedEmailPrivacy = true
    let quiet = try emulation.sendCode(
      .of("PASSWORD_RESET", email: "No@X.co", returnLink: true, privileged: true))
    #expect(quiet == FirebaseCodeSent(email: "no@x.co", code: nil))
    #expect(try emulation.codes().isEmpty && emulation.engine.outbox.messages.isEmpty)

    #expect(
      await firebaseFailure { try emulation.sendCode(.of("EMAIL_SIGNIN")) }
        == .badRequest(.missingEmail))
    #expect(
      await firebaseFailure { try emulation.sendCode(.of("EMAIL_SIGNIN", email: "not-an-address")) }
        == .badRequest(.invalidEmail))
    let signIn = try emulation.sendCode(
      .of("EMAIL_SIGNIN", email: "Someone@Example.com", continueURL: "http://127.0.0.1:3000/done"))
    #expect(signIn.email == "someone@example.com")
    let code = try #require(signIn.code)
    #expect(
      code.link
        == "http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=\(code.code)&apiKey=fake-api-key&continueUrl=http%3A%2F%2F127.0.0.1%3A3000%2Fdone"
    )
    let mail = try #require(emulation.engine.outbox.newest(to: "someone@example.com"))
    #expect(mail.kind == .magicLink && mail.subject == "Sign in to demo-app")
    #expect(try emulation.engine.column("SELECT user_id IS NULL FROM oob_codes") == ["1"])
  }

  @Test func verifyEmailTakesTheIDTokensUserOrAnAdminsAddress() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("v@example.com")
    let cases: [(FirebaseCodeRequest, IdentityToolkitError)] = [
      // Without returnOobLink the address is ignored and the missing token is invalid.
      (.of("VERIFY_EMAIL", email: "v@example.com"), .badRequest(.invalidIDToken)),
      (.of("VERIFY_EMAIL", idToken: "x.y.z"), .badRequest(.invalidIDToken)),
      (.of("VERIFY_EMAIL", returnLink: true, privileged: true), .badRequest(.missingEmail)),
      (
        .of("VERIFY_EMAIL", email: "no@example.com", returnLink: true, privileged: true),
        .badRequest(.userNotFound)
      ),
    ]
    for (request, expected) in cases {
      #expect(await firebaseFailure { try emulation.sendCode(request) } == expected, "\(request)")
    }
    let mailed = try emulation.sendCode(.of("VERIFY_EMAIL", idToken: session.idToken))
    #expect(mailed.email == "v@example.com")
    #expect(
      emulation.engine.outbox.newest(to: "v@example.com")?.subject
        == "Verify your email for demo-app")
    let byAdmin = try emulation.sentCode(
      .of("VERIFY_EMAIL", email: "V@example.com", returnLink: true, privileged: true))
    #expect(byAdmin.email == "v@example.com" && byAdmin.type == .verifyEmail)
    let byToken = try emulation.sentCode(
      .of(
        "VERIFY_EMAIL", email: "ignored@example.com", idToken: session.idToken,
        returnLink: true, privileged: true))
    #expect(byToken.email == "v@example.com")
    #expect(emulation.engine.outbox.messages.count == 1, "returned links are not mailed")
    #expect(try emulation.codes().count == 3)

    var disabled = FirebaseAccountChanges()
    disabled.disabled = true
    _ = try await emulation.update(id: session.account.id, disabled)
    #expect(
      await firebaseFailure {
        try emulation.sendCode(.of("VERIFY_EMAIL", idToken: session.idToken))
      }
        == .badRequest(.userDisabled))
  }

  @Test func verifyAndChangeEmailNeedsTheNewAddressFirst() async throws {
    let emulation = try makeEmulation()
    let session = try await emulation.newUser("alice@example.com")
    let cases: [(FirebaseCodeRequest, IdentityToolkitError)] = [
      (.of("VERIFY_AND_CHANGE_EMAIL", email: "alice@example.com"), .badRequest(.missingNewEmail)),
      (.of("VERIFY_AND_CHANGE_EMAIL", newEmail: "bob@example.com"), .badRequest(.missingIDToken)),
      (
        .of("VERIFY_AND_CHANGE_EMAIL", email: "alice@example.com", newEmail: "bob@example.com"),
        .badRequest(.missingIDToken)
      ),
      (
        .of("VERIFY_AND_CHANGE_EMAIL", newEmail: "bob@example.com", idToken: "x"),
        .badRequest(.invalidIDToken)
      ),
      (
        .of(
          "VERIFY_AND_CHANGE_EMAIL", newEmail: "bob@example.com", returnLink: true,
          privileged: true), .badRequest(.missingEmail)
      ),
      (
        .of(
          "VERIFY_AND_CHANGE_EMAIL", email: "no@example.com", newEmail: "bob@example.com",
          returnLink: true, privileged: true), .badRequest(.userNotFound)
      ),
      (
        .of("VERIFY_AND_CHANGE_EMAIL", newEmail: "TEST@example.com", idToken: session.idToken),
        .badRequest(.emailExists)
      ),
      (
        .of("VERIFY_AND_CHANGE_EMAIL", newEmail: "not-an-address", idToken: session.idToken),
        .badRequest(.invalidNewEmail)
      ),
    ]
    for (request, expected) in cases {
      #expect(await firebaseFailure { try emulation.sendCode(request) } == expected, "\(request)")
    }
    let sent = try emulation.sendCode(
      .of("VERIFY_AND_CHANGE_EMAIL", newEmail: "Bob@Example.com", idToken: session.idToken))
    #expect(sent.email == "alice@example.com")
    let code = try #require(try emulation.codes().first)
    #expect(code.type == .verifyAndChangeEmail && code.newEmail == "bob@example.com")
    #expect(code.link.contains("mode=verifyAndChangeEmail&lang=en&oobCode="))
    let mail = try #require(emulation.engine.outbox.newest(to: "bob@example.com"))
    #expect(mail.kind == .emailChange && mail.subject == "Verify your new email for demo-app")
    #expect(emulation.engine.outbox.newest(to: "alice@example.com") == nil)
  }
}
