import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// The public REST flows of the Firebase surface, as the client SDKs call them.
struct FirebaseFlowTests {
  @Test func signUpVerifyLookUpAndSignInAgain() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("Flow@Example.com")
    #expect(signedUp["email"] as? String == "flow@example.com")
    #expect(signedUp["expiresIn"] as? String == "3600")
    let idToken = try #require(signedUp["idToken"] as? String)
    let sent = await server.call(
      "sendOobCode", #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#)
    #expect(
      sent.text
        == #"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"flow@example.com"}"#)
    let listed = try await server.oobCodes()
    #expect(listed.count == 1)
    let entry = try #require(listed.first)
    #expect(entry["email"] == "flow@example.com")
    #expect(entry["requestType"] == "VERIFY_EMAIL")
    let code = try #require(entry["oobCode"])
    #expect(
      entry["oobLink"]
        == "http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=\(code)&apiKey=fake-api-key"
    )
    let mail = try #require(server.engine.outbox.newest(to: "flow@example.com"))
    #expect(mail.link == entry["oobLink"])

    let applied = await server.call("update", #"{"oobCode":"\#(code)"}"#)
    #expect(applied.status == 200)
    #expect(applied.object?["emailVerified"] as? Bool == true)
    #expect(applied.object?["idToken"] == nil)
    #expect(try await server.oobCodes().isEmpty)
    let again = await server.call("update", #"{"oobCode":"\#(code)"}"#)
    #expect(again.text == Reply.badRequestBody("INVALID_OOB_CODE"))

    let lookup = await server.call("lookup", #"{"idToken":"\#(idToken)"}"#)
    let users = try #require(lookup.object?["users"] as? [[String: Any]])
    #expect(users.count == 1)
    let user = try #require(users.first)
    #expect(user["emailVerified"] as? Bool == true)
    #expect(user["passwordHash"] as? String == "UkVEQUNURUQ=")
    #expect(user["createdAt"] as? String == "1735689600000")
    #expect(user["validSince"] as? String == "1735689600")
    let providers = try #require(user["providerUserInfo"] as? [[String: String]])
    #expect(providers.first?["rawId"] == "flow@example.com")

    let signIn = await server.call(
      "signInWithPassword", #"{"email":"flow@example.com","password":"secret123"}"#)
    let session = try #require(signIn.object)
    #expect(session["registered"] as? Bool == true)
    #expect(session["localId"] as? String == signedUp["localId"] as? String)
  }

  @Test func everySignInAndSignUpErrorHasTheEmulatorsMessage() async throws {
    let server = try FirebaseTestServer()
    let cases: [(String, String, String)] = [
      ("signUp", #"{"localId":"x"}"#, "UNEXPECTED_PARAMETER : User ID"),
      ("signUp", #"{"email":"","password":""}"#, "INVALID_EMAIL"),
      ("signUp", #"{"email":"","password":"secret123"}"#, "MISSING_EMAIL"),
      ("signUp", #"{"password":"secret123"}"#, "MISSING_EMAIL"),
      ("signUp", #"{"email":"a@example.com"}"#, "MISSING_PASSWORD"),
      ("signUp", #"{"email":"bad","password":"secret123"}"#, "INVALID_EMAIL"),
      ("signUp", #"{"email":"test@example.com","password":"secret123"}"#, "EMAIL_EXISTS"),
      (
        "signUp", #"{"email":"a@example.com","password":"123"}"#,
        "WEAK_PASSWORD : Password should be at least 6 characters"
      ),
      ("signInWithPassword", #"{"password":"x"}"#, "MISSING_EMAIL"),
      ("signInWithPassword", #"{"email":"","password":"x"}"#, "INVALID_EMAIL"),
      ("signInWithPassword", #"{"email":"test@example.com"}"#, "MISSING_PASSWORD"),
      ("signInWithPassword", #"{"email":"no@example.com","password":"x"}"#, "EMAIL_NOT_FOUND"),
      ("signInWithPassword", #"{"email":"test@example.com","password":"x"}"#, "INVALID_PASSWORD"),
      ("lookup", #"{}"#, "MISSING_ID_TOKEN"),
      ("lookup", #"{"idToken":"x.y.z"}"#, "INVALID_ID_TOKEN"),
      ("delete", #"{}"#, "MISSING_ID_TOKEN"),
      ("update", #"{"displayName":"x"}"#, "INVALID_REQ_TYPE : Unsupported request parameters."),
      ("update", #"{"idToken":"x","customAttributes":"{}"}"#, "INSUFFICIENT_PERMISSION"),
      ("resetPassword", #"{}"#, "MISSING_OOB_CODE"),
      ("resetPassword", #"{"oobCode":"nope"}"#, "INVALID_OOB_CODE"),
      ("sendOobCode", #"{}"#, "MISSING_REQ_TYPE"),
      ("sendOobCode", #"{"requestType":"PASSWORD_RESET"}"#, "MISSING_EMAIL"),
      (
        "sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"no@example.com"}"#,
        "EMAIL_NOT_FOUND"
      ),
      ("sendOobCode", #"{"requestType":"VERIFY_EMAIL"}"#, "INVALID_ID_TOKEN"),
      (
        "sendOobCode", #"{"requestType":"VERIFY_EMAIL","returnOobLink":true}"#,
        "INSUFFICIENT_PERMISSION"
      ),
      (
        "sendOobCode",
        #"{"requestType":"PASSWORD_RESET","email":"test@example.com","continueUrl":"nope"}"#,
        "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))"
      ),
      (
        "sendOobCode",
        #"{"requestType":"PASSWORD_RESET","email":"test@example.com","continueUrl":"https://evil.example/x"}"#,
        "UNAUTHORIZED_DOMAIN : Domain not allowlisted by project"
      ),
    ]
    for (operation, body, message) in cases {
      let reply = await server.call(operation, body)
      #expect(reply.status == 400, "\(operation) \(body)")
      #expect(reply.text == Reply.badRequestBody(message), "\(operation) \(body)")
    }
    let other = await server.call(
      "sendOobCode", #"{"requestType":"RECOVER_EMAIL","email":"a@b.co"}"#)
    #expect(other.status == 501)
    #expect(other.googleMessage == "RECOVER_EMAIL")
  }

  @Test func idTokenErrorsAndAccountChanges() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("me@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    let disable = await server.call("update", #"{"idToken":"\#(idToken)","disableUser":true}"#)
    #expect(disable.text == Reply.badRequestBody("OPERATION_NOT_ALLOWED"))
    let renamed = await server.call(
      "update", #"{"idToken":"\#(idToken)","displayName":"Me","emailVerified":true}"#)
    #expect(renamed.object?["displayName"] as? String == "Me")
    #expect(renamed.object?["emailVerified"] as? Bool == false)
    #expect(renamed.object?["idToken"] == nil)
    server.clock.advance(by: 2)
    let changed = await server.call(
      "update", #"{"idToken":"\#(idToken)","password":"another-secret"}"#)
    let newToken = try #require(changed.object?["idToken"] as? String)
    #expect(changed.object?["expiresIn"] as? String == "3600")
    #expect(changed.object?["kind"] as? String == "identitytoolkit#SetAccountInfoResponse")
    let stale = await server.call("lookup", #"{"idToken":"\#(idToken)"}"#)
    #expect(stale.text == Reply.badRequestBody("TOKEN_EXPIRED"))
    let weak = await server.call("update", #"{"idToken":"\#(newToken)","password":"123"}"#)
    #expect(
      weak.text == Reply.badRequestBody("WEAK_PASSWORD : Password should be at least 6 characters"))
    let taken = await server.call(
      "update", #"{"idToken":"\#(newToken)","email":"test@example.com"}"#)
    #expect(taken.text == Reply.badRequestBody("EMAIL_EXISTS"))
    let deleted = await server.call("delete", #"{"idToken":"\#(newToken)"}"#)
    #expect(deleted.text == #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)
    let gone = await server.call("lookup", #"{"idToken":"\#(newToken)"}"#)
    #expect(gone.text == Reply.badRequestBody("USER_NOT_FOUND"))
  }

  @Test func codesWaitOnNoLimitAndUnimplementedFieldsAndLinkingAnswerAsGoogle() async throws {
    let server = try FirebaseTestServer()
    let body = #"{"requestType":"PASSWORD_RESET","email":"test@example.com"}"#
    #expect(await server.call("sendOobCode", body).status == 200)
    let again = await server.call("sendOobCode", body)
    #expect(again.status == 200, "the emulator has no wait between two emails")
    #expect(try await server.oobCodes().count == 2)
    let signedUp = try await server.signUp("link@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    for (operation, body, message) in [
      ("update", #"{"idToken":"\#(idToken)","provider":"x"}"#, "provider is not implemented yet."),
      (
        "update", #"{"idToken":"\#(idToken)","deleteAttribute":["PROVIDER"]}"#,
        "deleteAttribute: PROVIDER"
      ),
    ] {
      let reply = await server.call(operation, body)
      #expect(reply.status == 501, "\(body)")
      #expect(reply.googleMessage == message)
    }
    let initial = await server.admin("accounts:lookup", #"{"initialEmail":"a@b.co"}"#)
    #expect(initial.googleMessage == "Lookup by initialEmail is not implemented.")
    // signUp with an ID token links a new email and password to that user.
    server.clock.advance(by: 1)
    let linked = await server.call(
      "signUp", #"{"idToken":"\#(idToken)","email":"relinked@example.com","password":"secret456"}"#)
    #expect(linked.object?["localId"] as? String == signedUp["localId"] as? String)
    #expect(linked.object?["email"] as? String == "relinked@example.com")
    let stale = await server.call(
      "signUp", #"{"idToken":"\#(idToken)","email":"x@example.com","password":"secret456"}"#)
    #expect(stale.text == Reply.badRequestBody("TOKEN_EXPIRED"))
  }

  @Test func passwordResetByCodeChecksThenSpendsIt() async throws {
    let server = try FirebaseTestServer()
    _ = await server.call(
      "sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"TEST@example.com"}"#)
    let code = try #require(try await server.oobCodes().first?["oobCode"])
    let checked = await server.call("resetPassword", #"{"oobCode":"\#(code)"}"#)
    #expect(
      checked.text
        == #"{"kind":"identitytoolkit#ResetPasswordResponse","requestType":"PASSWORD_RESET","email":"test@example.com"}"#
    )
    let weak = await server.call("resetPassword", #"{"oobCode":"\#(code)","newPassword":"1"}"#)
    #expect(
      weak.text == Reply.badRequestBody("WEAK_PASSWORD : Password should be at least 6 characters"))
    let verify = await server.call("update", #"{"oobCode":"\#(code)"}"#)
    #expect(verify.status == 501)
    #expect(verify.googleMessage == "PASSWORD_RESET")
    let reset = await server.call(
      "resetPassword", #"{"oobCode":"\#(code)","newPassword":"secret456"}"#)
    #expect(reset.status == 200)
    let signIn = await server.call(
      "signInWithPassword", #"{"email":"test@example.com","password":"secret456"}"#)
    #expect(signIn.status == 200)
    let twice = await server.call(
      "resetPassword", #"{"oobCode":"\#(code)","newPassword":"secret789"}"#)
    #expect(twice.text == Reply.badRequestBody("INVALID_OOB_CODE"))
    let expired = try FirebaseTestServer()
    _ = await expired.call(
      "sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"test@example.com"}"#)
    let old = try #require(try await expired.oobCodes().first?["oobCode"])
    expired.clock.advance(by: 86_400)
    let late = await expired.call("resetPassword", #"{"oobCode":"\#(old)"}"#)
    #expect(late.text == Reply.badRequestBody("EXPIRED_OOB_CODE"))
  }

  @Test func secureTokenRefreshesFromJSONOrFormInTheEmulatorsOrder() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("t@example.com")
    let refreshToken = try #require(signedUp["refreshToken"] as? String)
    let path = "/securetoken.googleapis.com/v1/token"
    let json = await server.send(
      .post, path, body: #"{"grant_type":"refresh_token","refresh_token":"\#(refreshToken)"}"#,
      query: [("key", "k")])
    let answer = try #require(json.object)
    #expect(answer["expires_in"] as? String == "3600")
    #expect(answer["token_type"] as? String == "Bearer")
    #expect(answer["project_id"] as? String == "12345")
    #expect(answer["user_id"] as? String == signedUp["localId"] as? String)
    #expect(answer["id_token"] as? String == answer["access_token"] as? String)
    #expect(json.text.hasPrefix(#"{"id_token":""#))
    let next = try #require(answer["refresh_token"] as? String)
    #expect(next != refreshToken)
    let form = await server.send(
      .post, path, query: [("key", "k")],
      headers: [("Content-Type", "application/x-www-form-urlencoded")])
    #expect(form.text == Reply.badRequestBody("MISSING_GRANT_TYPE"))
    let formRequest = HTTPRequest(
      method: .post, path: path, query: [(name: "key", value: "k")],
      headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")],
      body: Array("grant_type=refresh_token&refresh_token=\(next)".utf8), peer: "127.0.0.1:1")
    #expect(Reply(await server.responder.answer(formRequest)).status == 200)
    for (body, message) in [
      (#"{"grantType":"password"}"#, "INVALID_GRANT_TYPE"),
      (#"{"grantType":"refresh_token"}"#, "MISSING_REFRESH_TOKEN"),
      (
        #"{"grantType":"refresh_token","refreshToken":"bogus-refresh-token"}"#,
        "INVALID_REFRESH_TOKEN"
      ),
    ] {
      let reply = await server.send(.post, path, body: body, query: [("key", "k")])
      #expect(reply.text == Reply.badRequestBody(message), "\(body)")
    }
    let noKey = await server.send(
      .post, path, body: "{}", headers: [("Authorization", "Bearer owner")])
    #expect(noKey.status == 403, "Secure Token takes an API key only")
  }
}
