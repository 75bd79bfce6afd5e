import AuthCrypto
import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// Sign-up, `accounts:update`, custom tokens and Secure Token over HTTP, as the emulator
/// answers them.
struct FirebaseAccountRouteTests {
  /// The claims of an ID token, read without checking it.
  static func claims(_ token: Any?) throws -> [String: Any] {
    let text = try #require(token as? String)
    let payload = try #require(Base64URL.decode(text.split(separator: ".")[1]))
    return try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
  }

  @Test func customTokensAreTakenOnlyWhereBearerOwnerIs() async throws {
    let server = try FirebaseTestServer()
    let path = "\(FirebaseTestServer.v1)/accounts:signInWithCustomToken"
    let body = #"{"token":"{\"uid\":\"c1\",\"claims\":{\"tier\":\"gold\"}}"}"#
    let refusal =
      "INVALID_CUSTOM_TOKEN : ((signInWithCustomToken answers only this machine (a loopback "
      + "connection): a custom token chooses the user it signs in, so authflow serve takes one "
      + "only where it takes Bearer owner.))"
    let afar = await server.send(
      .post, path, body: body, query: [("key", "k")], peer: "192.0.2.1:4000")
    #expect(afar.text == Reply.badRequestBody(refusal))
    let page = await server.send(
      .post, path, body: body, query: [("key", "k")], headers: [("Origin", "https://evil.test")])
    #expect(page.googleMessage?.hasPrefix("INVALID_CUSTOM_TOKEN : ((signInWithCustomToken") == true)
    let rebound = await server.send(
      .post, path, body: body, query: [("key", "k")], headers: [("Host", "evil.test")])
    #expect(rebound.googleMessage?.contains("the Host header named another host") == true)
    let empty = await server.send(
      .post, path, body: "{}", query: [("key", "k")], peer: "192.0.2.1:4000")
    #expect(empty.text == Reply.badRequestBody("MISSING_CUSTOM_TOKEN"))

    let made = await server.send(
      .post, path, body: body, query: [("key", "k")],
      headers: [("Origin", "http://localhost:5173")])
    #expect(made.status == 200)
    #expect(
      made.text.hasPrefix(
        #"{"kind":"identitytoolkit#VerifyCustomTokenResponse","isNewUser":true,"idToken":""#))
    #expect(made.text.hasSuffix(#","expiresIn":"3600"}"#))
    #expect(try Self.claims(made.object?["idToken"])["tier"] as? String == "gold")
    let legacy = await server.send(
      .post, "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyCustomToken", body: body,
      query: [("key", "k")])
    #expect(legacy.object?["isNewUser"] as? Bool == false)
    let refreshToken = try #require(legacy.object?["refreshToken"] as? String)
    let refreshed = await server.send(
      .post, "/securetoken.googleapis.com/v1/token",
      body: #"{"grant_type":"refresh_token","refresh_token":"\#(refreshToken)"}"#,
      query: [("key", "k")])
    let renewed = try Self.claims(refreshed.object?["id_token"])
    #expect(renewed["tier"] as? String == "gold")
    #expect((renewed["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "custom")
  }

  @Test func onlyAnAdminNamesATargetProjectInTheBody() async throws {
    let server = try FirebaseTestServer()
    let named = await server.call("signUp", #"{"targetProjectId":"demo-app"}"#)
    #expect(
      named.text
        == Reply.badRequestBody(
          "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id."))
    #expect(await server.call("signUp", #"{"targetProjectId":""}"#).status == 200)
    let owner = [("Authorization", "Bearer owner")]
    let other = await server.send(
      .post, "\(FirebaseTestServer.v1)/accounts:signUp",
      body: #"{"targetProjectId":"other","email":"t@example.com"}"#, headers: owner)
    #expect(other.googleMessage?.hasPrefix("Multiple projectIds are not recommended") == true)
    let same = await server.send(
      .post, "\(FirebaseTestServer.v1)/accounts:signUp",
      body: #"{"targetProjectId":"demo-app","email":"t@example.com"}"#, headers: owner)
    #expect(same.object?["email"] as? String == "t@example.com")
    #expect(same.object?["idToken"] == nil, "an admin's sign-up signs nobody in")
  }

  @Test func signUpsAnswerInTheEmulatorsShape() async throws {
    let server = try FirebaseTestServer()
    let anonymous = await server.call("signUp", #"{"displayName":"Ignored"}"#)
    let answer = try #require(anonymous.object)
    #expect(
      Set(answer.keys) == ["kind", "localId", "idToken", "refreshToken", "expiresIn"],
      "no email, no name")
    let idToken = try #require(answer["idToken"] as? String)
    #expect(try Self.claims(idToken)["provider_id"] as? String == "anonymous")
    let linked = await server.call(
      "signUp",
      #"{"idToken":"\#(idToken)","email":"Linked@Example.com","password":"secret123","displayName":"Lin"}"#
    )
    #expect(linked.object?["localId"] as? String == answer["localId"] as? String)
    #expect(linked.object?["displayName"] as? String == "Lin")
    #expect(linked.object?["email"] as? String == "linked@example.com")
    let admin = await server.admin("accounts", #"{"localId":"no-email","displayName":"N"}"#)
    #expect(
      admin.text
        == #"{"kind":"identitytoolkit#SignupNewUserResponse","localId":"no-email","displayName":"N"}"#
    )
  }

  @Test func updatesAreCheckedAndAnsweredAsTheEmulatorDoes() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("me@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    let id = try #require(signedUp["localId"] as? String)
    let photo = await server.call(
      "update", #"{"idToken":"\#(idToken)","photoUrl":"http://127.0.0.1/me.png"}"#)
    #expect(photo.object?["photoUrl"] as? String == "http://127.0.0.1/me.png")
    #expect(photo.object?["idToken"] == nil && photo.object?["newEmail"] == nil)
    let moved = await server.call("update", #"{"idToken":"\#(idToken)","email":"New@Example.com"}"#)
    #expect(moved.object?["newEmail"] as? String == "new@example.com")
    #expect(moved.object?["email"] as? String == "new@example.com")
    #expect(moved.object?["idToken"] != nil)
    let byIndex = await server.call(
      "update", #"{"idToken":"\#(idToken)","displayName":"Me","deleteAttribute":[2]}"#)
    #expect(byIndex.status == 200 && byIndex.object?["displayName"] == nil)

    for (body, message) in [
      (
        #"{"idToken":"\#(idToken)","deleteAttribute":["NAME"]}"#,
        "Invalid JSON payload received. /deleteAttribute/0 should be equal to one of the allowed values"
      ),
      (
        #"{"idToken":"\#(idToken)","deleteAttribute":["RAW_USER_INFO"]}"#,
        "deleteAttribute: RAW_USER_INFO"
      ),
      (#"{"idToken":"\#(idToken)","linkProviderUserInfo":{}}"#, "MISSING_PROVIDER_ID"),
      (#"{"idToken":"\#(idToken)","linkProviderUserInfo":{"providerId":"x"}}"#, "MISSING_RAW_ID"),
    ] {
      #expect(await server.call("update", body).googleMessage == message, "\(body)")
    }
    for (body, message) in [
      (#"{"customAttributes":"{bad"}"#, "MISSING_LOCAL_ID"),
      (#"{"localId":"\#(id)","customAttributes":"{bad"}"#, "INVALID_CLAIMS"),
      (#"{"localId":"\#(id)","customAttributes":"{\"sub\":1}"}"#, "FORBIDDEN_CLAIM : sub"),
      (#"{"localId":"nobody","customAttributes":"{\"a\":1}"}"#, "USER_NOT_FOUND"),
      (#"{"localId":"\#(id)","phoneNumber":"555"}"#, "INVALID_PHONE_NUMBER : Invalid format."),
      (#"{"localId":"\#(id)","email":"new@example.com","disableUser":true}"#, nil),
    ] {
      let reply = await server.admin("accounts:update", body)
      #expect(reply.googleMessage == message, "\(body): \(reply.text)")
    }
    let claims = await server.admin(
      "accounts:update", #"{"localId":"\#(id)","customAttributes":"{\"tier\":\"gold\"}"}"#)
    #expect(claims.status == 200 && claims.object?["idToken"] == nil)
  }

  @Test func secureTokenAnswersInTheEmulatorsOrderAndKeepsTheSignInTime() async throws {
    let server = try FirebaseTestServer()
    let path = "/securetoken.googleapis.com/v1/token"
    func grant(_ body: String) async -> Reply {
      await server.send(.post, path, body: body, query: [("key", "k")])
    }
    #expect(
      await grant(#"{"refresh_token":"malformedToken"}"#).text
        == Reply.badRequestBody("INVALID_REFRESH_TOKEN"), "an unreadable token comes first")
    let unknown = String(repeating: "A", count: 43)
    #expect(
      await grant(#"{"refresh_token":"\#(unknown)"}"#).text
        == Reply.badRequestBody("MISSING_GRANT_TYPE"))
    let signedUp = try await server.signUp("r@example.com")
    let id = try #require(signedUp["localId"] as? String)
    let first = try #require(signedUp["refreshToken"] as? String)
    server.clock.advance(by: 90)
    let refreshed = await grant(#"{"grantType":"refresh_token","refreshToken":"\#(first)"}"#)
    let claims = try Self.claims(refreshed.object?["id_token"])
    #expect(claims["auth_time"] as? Int == 1_735_689_600, "the sign-in's time, not the refresh's")
    #expect(claims["iat"] as? Int == 1_735_689_690)
    let lookup = await server.admin("accounts:lookup", #"{"localId":["\#(id)"]}"#)
    let user = try #require((lookup.object?["users"] as? [[String: Any]])?.first)
    #expect(user["lastLoginAt"] as? String == "1735689600000")
    #expect(user["lastRefreshAt"] as? String == "2025-01-01T00:01:30.000Z")

    let next = try #require(refreshed.object?["refresh_token"] as? String)
    _ = await server.admin("accounts:update", #"{"localId":"\#(id)","disableUser":true}"#)
    let body = #"{"grantType":"refresh_token","refreshToken":"\#(next)"}"#
    #expect(await grant(body).text == Reply.badRequestBody("USER_DISABLED"))
    _ = await server.admin("accounts:delete", #"{"localId":"\#(id)"}"#)
    #expect(await grant(body).text == Reply.badRequestBody("INVALID_REFRESH_TOKEN"))
  }
}
