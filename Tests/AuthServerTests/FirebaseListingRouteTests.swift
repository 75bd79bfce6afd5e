import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AccountStore
@testable import AuthServer

/// `createAuthUri`, lookups by identifier, and an admin's listings over HTTP.
struct FirebaseListingRouteTests {
  private let owner = [("Authorization", "Bearer owner")]
  private let kind = #""kind":"identitytoolkit#CreateAuthUriResponse""#

  /// A server whose store holds only the accounts `ids` (`<id>@example.com`, no password).
  private func server(with ids: [String]) async throws -> FirebaseTestServer {
    let server = try FirebaseTestServer {
      $0.seedsDemoAccounts = false
      $0.anonymousSignIns = true
    }
    for id in ids {
      let made = await server.admin(
        "accounts", #"{"localId":"\#(id)","email":"\#(id)@example.com"}"#)
      #expect(made.status == 200, "\(made.text)")
    }
    return server
  }

  @Test func createAuthUriSaysWhetherAndHowAnEmailSignsIn() async throws {
    let server = try FirebaseTestServer()
    let ask = { (identifier: String) in
      await server.call(
        "createAuthUri",
        #"{"identifier":"\#(identifier)","continueUri":"http://example.com/","sessionId":"s1"}"#)
    }
    #expect(
      await ask("nobody@example.com").text
        == "{\(kind),\"registered\":false,\"allProviders\":[],\"sessionId\":\"s1\",\"signinMethods\":[]}"
    )
    #expect(
      await ask("TEST@example.com").text
        == "{\(kind),\"registered\":true,\"allProviders\":[\"password\"],\"sessionId\":\"s1\",\"signinMethods\":[\"password\"]}"
    )
    let legacy = await server.send(
      .post, "/www.googleapis.com/identitytoolkit/v3/relyingparty/createAuthUri",
      body: #"{"identifier":"test@example.com","continue_uri":"myapp:done"}"#, query: [("key", "k")]
    )
    #expect(legacy.object?["registered"] as? Bool == true)
    #expect((legacy.object?["sessionId"] as? String)?.count == 27)
    #expect(
      await server.call("createAuthUri", #"{"continueUri":"http://example.com/"}"#).text
        == Reply.badRequestBody("MISSING_IDENTIFIER"))
    let idp = await server.call("createAuthUri", #"{"providerId":"google.com"}"#)
    #expect(idp.status == 501)
    #expect(idp.googleMessage == "Sign-in with IDP is not yet supported.")
    #expect(
      await server.send(.post, "\(FirebaseTestServer.v1)/accounts:createAuthUri", body: "{}")
        .status == 403)
    _ = await server.send(
      .patch, "\(FirebaseTestServer.emulator)/config",
      body: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#)
    #expect(await ask("test@example.com").text == "{\(kind),\"sessionId\":\"s1\"}")
  }

  @Test func lookupsShowAnAccountAsTheEmulatorDoes() async throws {
    let server = try await server(with: ["link", "plain"])
    try server.engine.withDatabase { database throws(GoTrueAPIError) in
      try database.run(
        """
        UPDATE users SET email_link_signin = 1, custom_auth = 1, initial_email = 'first@example.com',
          custom_claims = '{"role":"admin"}', photo_url = 'https://example.com/p.png'
        WHERE id = 'link'
        """)
    }
    let anonymous = try await server.engine.signUpAnonymously(data: [:])
    let body = """
      {"localId":["\(anonymous.user.id)","link"],"email":["PLAIN@example.com"],
      "phoneNumber":["+15555550100"],"federatedUserId":[{"providerId":"password",
      "rawId":"link@example.com"},{"providerId":"password"},{"rawId":"plain@example.com"}]}
      """
    let found = await server.admin("accounts:lookup", body)
    let users = try #require(found.object?["users"] as? [[String: Any]])
    #expect(users.map { $0["localId"] as? String } == [anonymous.user.id, "link", "plain"])
    #expect(users[0]["email"] == nil && users[0]["providerUserInfo"] == nil, "anonymous")
    let link = users[1]
    #expect(link["emailLinkSignin"] as? Bool == true && link["customAuth"] as? Bool == true)
    #expect(link["initialEmail"] as? String == "first@example.com")
    #expect(link["customAttributes"] as? String == #"{"role":"admin"}"#)
    #expect(link["passwordHash"] == nil)
    #expect(
      found.text.contains(
        #""providerUserInfo":[{"providerId":"password","email":"link@example.com","federatedId":"link@example.com","rawId":"link@example.com","photoUrl":"https://example.com/p.png"}]"#
      ))
    #expect(users[2]["providerUserInfo"] == nil && users[2]["emailLinkSignin"] == nil)
    #expect(
      await server.admin("accounts:lookup", #"{"phoneNumber":["+15555550100"]}"#).text
        == #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#)
    #expect(
      await server.admin("accounts:lookup", #"{"federatedUserId":"x"}"#).googleMessage
        == "Invalid JSON payload received. /federatedUserId should be array")
  }

  @Test func queryListsEveryAccountOrCountsThem() async throws {
    let server = try await server(with: ["b", "c", "a"])
    let query = { (body: String) in await server.admin("accounts:query", body) }
    #expect(await query(#"{"returnUserInfo":false,"limit":"5"}"#).text == #"{"recordsCount":"3"}"#)
    let all = try #require(await query("{}").object)
    #expect(all["recordsCount"] as? String == "3")
    #expect(
      (all["userInfo"] as? [[String: Any]])?.map { $0["localId"] as? String } == ["a", "b", "c"])
    for body in [#"{"order":"DESC"}"#, #"{"order":2,"sortBy":1,"offset":"0","limit":""}"#] {
      let reversed = await server.send(
        .post, "\(FirebaseTestServer.admin):queryAccounts", body: body, headers: owner)
      #expect(
        (reversed.object?["userInfo"] as? [[String: Any]])?.map { $0["localId"] as? String }
          == ["c", "b", "a"], "\(body)")
    }
    for (body, message) in [
      (#"{"expression":[{"email":"a@example.com"}]}"#, "expression is not implemented."),
      (#"{"limit":0}"#, "limit is not implemented."),
      (#"{"offset":"1"}"#, "offset is not implemented."),
      (#"{"sortBy":"NAME"}"#, "Only sorting by USER_ID is implemented."),
      (#"{"sortBy":5}"#, "Only sorting by USER_ID is implemented."),
    ] {
      let refused = await query(body)
      #expect(refused.status == 501, "\(body)")
      #expect(refused.googleMessage == message)
    }
    #expect(
      await query(#"{"order":"SIDEWAYS"}"#).googleMessage
        == "Invalid JSON payload received. /order should be equal to one of the allowed values")
    let keyOnly = await server.send(
      .post, "\(FirebaseTestServer.admin)/accounts:query", body: "{}", query: [("key", "k")])
    #expect(
      keyOnly.text
        == Reply.badRequestBody(
          "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id."))
  }

  @Test func batchGetAndItsLegacyDownloadAccountPageById() async throws {
    let server = try await server(with: ["b", "c", "a"])
    let batchGet = "\(FirebaseTestServer.admin)/accounts:batchGet"
    let ids = { (reply: Reply) in
      (reply.object?["users"] as? [[String: Any]])?.map { $0["localId"] as? String }
    }
    let full = await server.send(.get, batchGet, query: [("maxResults", "3")], headers: owner)
    #expect(ids(full) == ["a", "b", "c"] && full.object?["nextPageToken"] as? String == "c")
    let all = await server.send(.get, batchGet, query: [("maxResults", "-1")], headers: owner)
    #expect(ids(all) == ["a", "b", "c"] && all.object?["nextPageToken"] == nil)

    let download = "/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount"
    #expect(
      await server.send(.post, download, body: #"{"maxResults":2}"#).text
        == Reply.badRequestBody("INSUFFICIENT_PERMISSION"))
    let target = #"{"targetProjectId":"demo-app","maxResults":2}"#
    #expect(await server.send(.post, download, body: target).status == 403)
    #expect(
      await server.send(.post, download, body: target, query: [("key", "k")]).text
        == Reply.badRequestBody(
          "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id."))
    let other = await server.send(
      .post, download, body: #"{"target_project_id":"other"}"#, headers: owner)
    #expect(other.googleMessage?.hasPrefix("Multiple projectIds are not recommended") == true)
    let first = await server.send(.post, download, body: target, headers: owner)
    #expect(ids(first) == ["a", "b"] && first.object?["nextPageToken"] as? String == "b")
    let rest = await server.send(
      .post, download, body: #"{"targetProjectId":"demo-app","nextPageToken":"b"}"#,
      headers: owner)
    #expect(ids(rest) == ["c"] && rest.object?["nextPageToken"] == nil)
    #expect(await server.send(.get, download, headers: owner).status == 404)
  }

  @Test func anExportShowsAnAdminTheStoredHashAndItsSaltAndALookupDoesNot() async throws {
    let server = try await server(with: [])
    let made = await server.admin(
      "accounts", #"{"localId":"p","email":"p@example.com","password":"secret123"}"#)
    #expect(made.status == 200)
    let batchGet = "\(FirebaseTestServer.admin)/accounts:batchGet"
    let listed = await server.send(.get, batchGet, headers: owner)
    let user = try #require((listed.object?["users"] as? [[String: Any]])?.first)
    let hash = try #require((user["passwordHash"] as? String).flatMap { Data(base64Encoded: $0) })
    let text = String(decoding: hash, as: UTF8.self)
    #expect(text.hasPrefix("$2") && text.count == 60, "bcrypt's text, never the password")
    let salt = try #require((user["salt"] as? String).flatMap { Data(base64Encoded: $0) })
    #expect(String(decoding: salt, as: UTF8.self) == String(text.dropFirst(7).prefix(22)))
    #expect(!listed.text.contains("secret123"))
    let looked = await server.admin("accounts:lookup", #"{"localId":["p"]}"#)
    let lookedUp = try #require((looked.object?["users"] as? [[String: Any]])?.first)
    #expect(lookedUp["passwordHash"] as? String == "UkVEQUNURUQ=" && lookedUp["salt"] == nil)
  }
}
