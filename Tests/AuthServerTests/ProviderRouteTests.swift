import Foundation
import GoTrue
import HTTPServer
import Testing

@testable import AuthServer
@testable import GoTrueEngine

/// The switches GoTrue reads for providers and features, and the routes behind them:
/// anonymous sign-ins, the email provider, reauthentication, invitations, identities.
struct ProviderRouteTests {
  @Test func anonymousSignInsAnswerAsTheSwitchSays() async throws {
    let off = try TestServer()
    let refused = await off.send(.post, "/signup", json: "{}")
    #expect(refused.status == 422)
    #expect(refused.errorCode == "anonymous_provider_disabled")
    let settingsOff = await off.send(.get, "/settings")
    let externalOff = try #require(settingsOff.object?["external"] as? [String: Bool])
    #expect(externalOff["anonymous_users"] == false)

    let on = try TestServer { $0.anonymousSignIns = true }
    let session = await on.send(.post, "/signup", json: #"{"data":{"plan":"free"}}"#)
    #expect(session.status == 200)
    let user = try #require(session.object?["user"] as? [String: Any])
    #expect(user["is_anonymous"] as? Bool == true)
    #expect(user["email"] as? String == "")
    #expect((user["identities"] as? [Any])?.isEmpty == true)
    let settingsOn = await on.send(.get, "/settings")
    #expect((settingsOn.object?["external"] as? [String: Bool])?["anonymous_users"] == true)
  }

  @Test func theEmailProviderOffRefusesEachEmailRouteInGoTruesWords() async throws {
    let server = try TestServer { $0.emailProvider = false }
    let cases: [(HTTPMethod, String, String, [(String, String)], Int, String)] = [
      (
        .post, "/signup", #"{"email":"a@example.com","password":"secret123"}"#, [], 400,
        "Email signups are disabled"
      ),
      (.post, "/recover", #"{"email":"a@example.com"}"#, [], 400, "Email logins are disabled"),
      (.post, "/otp", #"{"email":"a@example.com"}"#, [], 422, "Email logins are disabled"),
      (.post, "/magiclink", #"{"email":"a@example.com"}"#, [], 422, "Email logins are disabled"),
      (
        .post, "/resend", #"{"type":"signup","email":"a@example.com"}"#, [], 400,
        "Email logins are disabled"
      ),
      (
        .post, "/token", #"{"email":"test@example.com","password":"TestPassword123!"}"#,
        [("grant_type", "password")], 422, "Email logins are disabled"
      ),
    ]
    for (method, path, body, query, status, message) in cases {
      let reply = await server.send(method, path, json: body, query: query)
      #expect(reply.status == status, "\(path)")
      #expect(reply.errorCode == "email_provider_disabled", "\(path)")
      #expect(reply.object?["msg"] as? String == message, "\(path)")
    }
    let settings = await server.send(.get, "/settings")
    #expect((settings.object?["external"] as? [String: Bool])?["email"] == false)
  }

  @Test func thePhoneProviderOnChecksNumbersAndTextsItsCodesToTheOutbox() async throws {
    let server = try TestServer { $0.phoneProvider = true }
    let settings = await server.send(.get, "/settings")
    #expect((settings.object?["external"] as? [String: Bool])?["phone"] == true)
    #expect(settings.object?["phone_autoconfirm"] as? Bool == false)
    let cases: [(HTTPMethod, String, String, [(String, String)], Int, String)] = [
      (
        .post, "/signup", #"{"phone":"0123","password":"secret123"}"#, [], 400,
        "Invalid phone number format (E.164 required)"
      ),
      (
        .post, "/signup", #"{"phone":"+15550100999","password":"secret123","channel":"fax"}"#,
        [], 400,
        "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only "
          + "supported if Twilio or Twilio Verify is used as the provider."
      ),
      (.post, "/signup", #"{"phone":"+1 555 0100 999","password":"secret123"}"#, [], 200, ""),
      (
        .post, "/token", #"{"phone":"+15550100999","password":"secret123"}"#,
        [("grant_type", "password")], 400, "Phone not confirmed"
      ),
      (
        .post, "/token", #"{"phone":"+15550100998","password":"secret123"}"#,
        [("grant_type", "password")], 400, "Invalid login credentials"
      ),
      (
        .post, "/otp", #"{"phone":"+15550100998","create_user":false}"#, [], 422,
        "Signups not allowed for otp"
      ),
      (
        .post, "/otp", #"{"phone":"+15550100999"}"#, [], 429,
        "For security purposes, you can only request this after 60 seconds."
      ),
      (.post, "/resend", #"{"type":"phone_change","phone":"+15550100999"}"#, [], 200, ""),
      (
        .post, "/verify", #"{"type":"sms","phone":"+15550100999","token":"000000"}"#, [], 403,
        "Token has expired or is invalid"
      ),
    ]
    for (method, path, body, query, status, message) in cases {
      let reply = await server.send(method, path, json: body, query: query)
      #expect(reply.status == status, "\(path) \(body)")
      if !message.isEmpty { #expect(reply.object?["msg"] as? String == message, "\(path)") }
    }
    let text = try #require(server.engine.smsOutbox.newest(to: "+15550100999"))
    #expect(server.engine.smsOutbox.messages.count == 1)
    let verified = await server.send(
      .post, "/verify", json: #"{"type":"sms","phone":"+15550100999","token":"\#(text.code)"}"#)
    #expect(verified.status == 200)
    #expect((verified.object?["user"] as? [String: Any])?["phone"] as? String == "15550100999")
    server.clock.advance(by: 61)
    let signIn = await server.send(.post, "/otp", json: #"{"phone":"+15550100999"}"#)
    let sent = try #require(server.engine.smsOutbox.newest(to: "+15550100999"))
    #expect(signIn.object?["message_id"] as? String == "\(sent.id)")
    let off = try TestServer()
    let refused = await off.send(.post, "/resend", json: #"{"type":"sms","phone":"+15550100999"}"#)
    #expect(refused.errorCode == "phone_provider_disabled")
    let unoffered = await off.send(.post, "/otp", json: #"{"phone":"+15550100999"}"#)
    #expect(unoffered.object?["msg"] as? String == "Unsupported phone provider")
  }

  @Test func reauthenticateSendsANonceToTheSignedInUser() async throws {
    let server = try TestServer()
    let anonymous = await server.send(.get, "/reauthenticate")
    #expect(anonymous.status == 401)
    let session = try await server.signIn()
    let token = try #require(session["access_token"] as? String)
    let sent = await server.send(
      .get, "/reauthenticate", headers: [("Authorization", "Bearer \(token)")])
    #expect(sent.status == 200)
    #expect(sent.text == "{}")
    #expect(server.engine.outbox.newest(to: "test@example.com")?.kind == .reauthentication)
  }

  @Test func invitationsAreForAdminsAndAnswerTheUser() async throws {
    let server = try TestServer()
    let session = try await server.signIn()
    let token = try #require(session["access_token"] as? String)
    let notAdmin = await server.send(
      .post, "/invite", json: #"{"email":"guest@example.com"}"#,
      headers: [("Authorization", "Bearer \(token)")])
    #expect(notAdmin.status == 403)
    #expect(notAdmin.errorCode == "not_admin")
    let invited = await server.send(
      .post, "/invite", json: #"{"email":"guest@example.com","data":{"team":"blue"}}"#,
      headers: server.admin)
    #expect(invited.status == 200)
    #expect(invited.object?["email"] as? String == "guest@example.com")
    #expect(invited.object?["invited_at"] is String)
    let link = try #require(server.engine.outbox.newest(to: "guest@example.com")?.link)
    #expect(link.hasPrefix("http://127.0.0.1:9999/verify?token=") && link.contains("type=invite"))
  }

  @Test func identitiesAreNotLinkedByHandUnlessAskedAndTheLastNeverGoes() async throws {
    let off = try TestServer()
    #expect(await off.send(.delete, "/user/identities/\(UUIDText.placeholder)").status == 401)
    let offSession = try await off.signIn()
    let offToken = try #require(offSession["access_token"] as? String)
    let disabled = await off.send(
      .delete, "/user/identities/\(UUIDText.placeholder)",
      headers: [("Authorization", "Bearer \(offToken)")])
    #expect(disabled.status == 404)
    #expect(disabled.errorCode == "manual_linking_disabled")

    let on = try TestServer { $0.manualLinking = true }
    let session = try await on.signIn()
    let token = try #require(session["access_token"] as? String)
    let bearer = [("Authorization", "Bearer \(token)")]
    let notUUID = await on.send(.delete, "/user/identities/nope", headers: bearer)
    #expect(notUUID.status == 404)
    #expect(notUUID.object?["msg"] as? String == "identity_id must be an UUID")
    let user = try #require(session["user"] as? [String: Any])
    let identity = try #require((user["identities"] as? [[String: Any]])?.first)
    let only = await on.send(
      .delete, "/user/identities/\(try #require(identity["identity_id"] as? String))",
      headers: bearer)
    #expect(only.status == 422)
    #expect(only.errorCode == "single_identity_not_deletable")
    #expect(only.object?["msg"] as? String == "User must have at least 1 identity after unlinking")
    let link = await on.send(
      .get, "/user/identities/authorize", query: [("provider", "github")], headers: bearer)
    #expect(link.status == 400)
    #expect(link.object?["msg"] as? String == "Unsupported provider: provider is not enabled")
  }
}
