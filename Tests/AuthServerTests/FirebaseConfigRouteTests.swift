import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// The project's configuration over HTTP (Identity Toolkit's v2 and the emulator's own), and
/// what improved email privacy changes in password sign-in.
struct FirebaseConfigRouteTests {
  private let owner = [("Authorization", "Bearer owner")]
  private let v2 = "/identitytoolkit.googleapis.com/v2/projects/demo-app/config"
  private let defaults =
    #"{"signIn":{"allowDuplicateEmails":false},"blockingFunctions":{},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#
  private let forwarding =
    #"{"signIn":{"allowDuplicateEmails":true},"blockingFunctions":{"forwardInboundCredentials":{"idToken":true}}}"#

  @Test func v2ConfigIsAnAdminsAndMasksOrResets() async throws {
    let server = try FirebaseTestServer()
    #expect(await server.send(.get, v2).status == 403)
    #expect(
      await server.send(.get, v2, query: [("key", "k")]).text
        == Reply.badRequestBody(
          "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id."))
    #expect(await server.send(.get, v2, headers: owner).text == defaults)
    let masked = await server.send(
      .patch, v2, body: forwarding,
      query: [
        (
          "updateMask",
          "signIn.allowDuplicateEmails,blockingFunctions.forwardInboundCredentials.idToken"
        )
      ], headers: owner)
    #expect(
      masked.text
        == #"{"signIn":{"allowDuplicateEmails":true},"blockingFunctions":{"forwardInboundCredentials":{"idToken":true}},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#
    )
    let unsent = await server.send(
      .patch, v2, body: "{}", query: [("updateMask", "displayName")], headers: owner)
    #expect(unsent.text == masked.text, "a path the body lacks changes nothing")
    let snake = await server.send(
      .patch, v2, body: #"{"email_privacy_config":{"enable_improved_email_privacy":true}}"#,
      query: [("updateMask", "emailPrivacyConfig")], headers: owner)
    #expect(snake.text.hasSuffix(#""emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#))
    #expect(server.emulation.improvedEmailPrivacy && server.emulation.allowDuplicateEmails)
    #expect(await server.send(.patch, v2, body: "{}", headers: owner).text == defaults)
    #expect(await server.send(.get, v2, headers: owner).text == defaults)
  }

  @Test func v2ConfigRefusesWhatTheEmulatorRefusesAndBlockingFunctions() async throws {
    let server = try FirebaseTestServer()
    let patch = { (body: String) in await server.send(.patch, v2, body: body, headers: self.owner) }
    #expect(
      await patch(
        #"{"blockingFunctions":{"triggers":{"invalidEventTrigger":{"functionUri":"http://localhost"}}}}"#
      ).text == Reply.badRequestBody("INVALID_BLOCKING_FUNCTION : ((Event type is invalid.))"))
    #expect(
      await patch(
        #"{"blockingFunctions":{"triggers":{"beforeCreate":{"functionUri":"invalidUri"}}}}"#
      )
      .googleMessage
        == "INVALID_BLOCKING_FUNCTION : ((Expected an absolute URI with valid scheme and host.))")
    let trigger = await patch(
      #"{"blockingFunctions":{"triggers":{"beforeSignIn":{"functionUri":"http://127.0.0.1:5001/f"}}}}"#
    )
    #expect(trigger.status == 501)
    #expect(
      await patch(#"{"signIn":{"allowDuplicateEmails":"yes"}}"#).googleMessage
        == "Invalid JSON payload received. /signIn/allowDuplicateEmails should be boolean")
    #expect(
      await patch(#"{"emailPrivacyConfig":true}"#).googleMessage
        == "Invalid JSON payload received. /emailPrivacyConfig should be object")
    let other = await server.send(
      .get, "/identitytoolkit.googleapis.com/v2/projects/other/config", headers: owner)
    #expect(other.googleMessage?.hasPrefix("Multiple projectIds are not recommended") == true)
    #expect(await server.send(.get, v2, headers: owner).text == defaults, "nothing was kept")
  }

  @Test func theEmulatorsConfigSetsTheFlagsSentAndAnEmptyPatchResetsAll() async throws {
    let server = try FirebaseTestServer()
    let emulator = "\(FirebaseTestServer.emulator)/config"
    _ = await server.send(
      .patch, v2, body: forwarding, query: [("updateMask", "blockingFunctions")], headers: owner)
    let privacy = await server.send(
      .patch, emulator, body: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#)
    #expect(
      privacy.text
        == #"{"signIn":{"allowDuplicateEmails":false},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#
    )
    #expect(
      await server.send(.get, v2, headers: owner).text.contains(#""forwardInboundCredentials""#))
    let reset = await server.send(.patch, emulator, body: "{}")
    #expect(
      reset.text
        == #"{"signIn":{"allowDuplicateEmails":false},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#
    )
    #expect(await server.send(.get, v2, headers: owner).text == defaults)
  }

  @Test func passwordSignInChecksItsFieldsThenHidesOrNamesWhatFailed() async throws {
    let server = try FirebaseTestServer()
    let signIn = { (body: String) in await server.call("signInWithPassword", body) }
    #expect(await signIn(#"{"password":"x"}"#).text == Reply.badRequestBody("MISSING_EMAIL"))
    #expect(
      await signIn(#"{"email":"","password":"x"}"#).text == Reply.badRequestBody("INVALID_EMAIL"))
    #expect(
      await signIn(#"{"email":"a@b","password":"secret123"}"#).text
        == Reply.badRequestBody("EMAIL_NOT_FOUND"))
    for (body, message) in [
      (
        #"{"email":"test@example.com","password":"x","captchaResponse":"r"}"#,
        "captcha unimplemented"
      ),
      (
        #"{"email":"test@example.com","password":"x","idToken":"t"}"#,
        "idToken / pendingIdToken is no longer in use and unsupported by the Auth Emulator."
      ),
    ] {
      let refused = await signIn(body)
      #expect(refused.status == 501 && refused.googleMessage == message)
    }
    #expect(
      await signIn(#"{"email":"test@example.com","captchaResponse":"r"}"#).googleMessage
        == "MISSING_PASSWORD", "the fields first")
    _ = await server.send(
      .patch, "\(FirebaseTestServer.emulator)/config",
      body: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#)
    #expect(
      await signIn(#"{"email":"test@example.com","password":"wrong"}"#).text
        == Reply.badRequestBody("INVALID_LOGIN_CREDENTIALS"))
  }
}
