import GoTrue
import HTTPServer
import Testing

@testable import AuthServer

/// Routing as GoTrue's router does it (chi over Go's `net/url`): 405 with `Allow` for a method
/// a path does not take, the check of a guarded group before its 404 or 405, the path as sent
/// when Go keeps it, parts split at the `/` byte; and the routes of features that are off.
struct GoTrueRoutingTests {
  @Test(arguments: [
    (HTTPMethod.patch, "/token", ["POST"]), (.trace, "/token", ["POST"]),
    (.head, "/health", ["GET"]), (.delete, "/settings", ["GET"]),
    (.put, "/verify", ["GET", "POST"]), (.trace, "/.well-known/jwks.json", ["GET"]),
  ])
  func aMethodThePathDoesNotTakeIsRefusedWithItsAllowFieldsAndNoBody(
    method: HTTPMethod, path: String, allowed: [String]
  ) async throws {
    let server = try TestServer()
    let reply = await server.send(method, path)
    #expect(reply.status == 405, "\(method) \(path)")
    #expect(reply.headers.filter { $0.name == "Allow" }.map(\.value) == allowed)
    #expect(reply.body.isEmpty)
  }

  @Test func aGuardedGroupChecksItsCallerBeforeItsNotFoundOrNotAllowed() async throws {
    let server = try TestServer()
    for (method, path) in [
      (HTTPMethod.patch, "/user"), (.get, "/user/nothing"), (.patch, "/admin/users"),
      (.get, "/admin/nothing"), (.get, "/factors"),
    ] {
      let stranger = await server.send(method, path)
      #expect(stranger.status == 401, "\(method) \(path)")
      #expect(stranger.errorCode == "no_authorization", "\(method) \(path)")
    }
    let admin = await server.send(.patch, "/admin/users", headers: server.admin)
    #expect(admin.status == 405)
    #expect(admin.headers.filter { $0.name == "Allow" }.map(\.value) == ["GET", "POST"])
    let adminUnknown = await server.send(.get, "/admin/nothing", headers: server.admin)
    #expect(adminUnknown.status == 404 && adminUnknown.text == "404 page not found\n")
    let session = try await server.signIn()
    let token = try #require(session["access_token"] as? String)
    let user = await server.send(.patch, "/user", headers: [("Authorization", "Bearer " + token)])
    #expect(user.status == 405)
    #expect(user.headers.filter { $0.name == "Allow" }.map(\.value) == ["GET", "PUT", "DELETE"])
  }

  @Test func theRouterReadsThePathAsSentWhenGoKeepsIt() {
    let decoded = HTTPRequest(method: .get, path: "/admin/users/a/b", rawPath: "/admin/users/a%2Fb")
    #expect(GoRouting.path(of: decoded) == "/admin/users/a%2Fb")
    let letter = HTTPRequest(method: .get, path: "/admin/users", rawPath: "/%61dmin/users")
    #expect(GoRouting.path(of: letter) == "/%61dmin/users")
    let space = HTTPRequest(method: .get, path: "/a b/é", rawPath: "/a%20b/%C3%A9")
    #expect(GoRouting.path(of: space) == "/a b/é")
    let lowerHex = HTTPRequest(
      method: .get, path: "/a b", rawPath: "/a%2tb".replacing("2t", with: "20").lowercased())
    #expect(GoRouting.path(of: lowerHex) == "/a b")
    #expect(GoRouting.escaped("/x:y@z$&+,;=-_.~!") == "/x:y@z$&+,;=-_.~%21")
  }

  @Test func anEscapedSlashIsPartOfASegmentNotASeparator() async throws {
    let server = try TestServer()
    let request = HTTPRequest(
      method: .get, path: "/admin/users/a/b", rawPath: "/admin/users/a%2Fb",
      headers: server.admin.map { (name: $0.0, value: $0.1) }, peer: "127.0.0.1:1")
    let reply = Reply(await server.responder.answer(request))
    // Routed as one user id, which is not a UUID (GoTrue's `loadUser`), not as a 404.
    #expect(reply.status == 404)
    #expect(reply.errorCode == "user_not_found" || reply.errorCode == "validation_failed")
    let spelt = HTTPRequest(
      method: .get, path: "/health", rawPath: "/%68ealth", peer: "127.0.0.1:1")
    #expect(Reply(await server.responder.answer(spelt)).text == "404 page not found\n")
  }

  @Test func aSegmentStartingWithACombiningMarkIsStillASegment() async throws {
    let server = try TestServer()
    let mark = "/admin/users/\u{301}x"
    let request = HTTPRequest(
      method: .get, path: mark, rawPath: "/admin/users/%CC%81x",
      headers: server.admin.map { (name: $0.0, value: $0.1) }, peer: "127.0.0.1:1")
    let reply = Reply(await server.responder.answer(request))
    #expect(reply.status == 404)
    #expect(reply.object != nil, "a JSON answer from the user route, not the router's text 404")
    #expect(GoRouting.parts(of: "/a/\u{301}b") == ["a", "\u{301}b"])
  }

  @Test func featuresThatAreOffAnswerAsGoTrueDoesWithThemOff() async throws {
    let server = try TestServer()
    let cases: [(HTTPMethod, String, [(String, String)], Int, String, String)] = [
      (.get, "/passkeys", [], 404, "passkey_disabled", "Passkeys are disabled"),
      (.patch, "/passkeys/abc", [], 404, "passkey_disabled", "Passkeys are disabled"),
      (.get, "/sso/saml/metadata", [], 404, "saml_provider_disabled", "SAML 2.0 is disabled"),
      (.get, "/scim/v2/Users", [], 404, "feature_disabled", "SCIM server is disabled"),
      (.get, "/admin/custom-providers", [], 401, "no_authorization", ""),
      (
        .get, "/admin/custom-providers", server.admin, 404, "feature_disabled",
        "Custom OAuth providers are disabled"
      ),
      (
        .delete, "/admin/custom-providers/x", server.admin, 404, "feature_disabled",
        "Custom OAuth providers are disabled"
      ),
      (
        .get, "/admin/sso/providers/3f1b6a4e-0a52-4f6c-9f0e-2b8c1f7d9a10", server.admin, 404,
        "sso_provider_not_found", "SSO Identity Provider not found"
      ),
      (.get, "/admin/sso/providers/x", [], 401, "no_authorization", ""),
    ]
    for (method, path, headers, status, code, message) in cases {
      let reply = await server.send(method, path, headers: headers)
      #expect(reply.status == status, "\(method) \(path)")
      #expect(reply.errorCode == code, "\(method) \(path)")
      if !message.isEmpty { #expect(reply.object?["msg"] as? String == message, "\(path)") }
    }
  }

  @Test func anSSOProviderIsCheckedAsGoTrueChecksOneBeforeSAMLsMetadata() async throws {
    let server = try TestServer()
    let cases: [(String, Int, String)] = [
      (#"{"type":"oidc"}"#, 400, "Only 'saml' supported for SSO provider type"),
      (#"{"type":"saml"}"#, 400, "Either metadata_xml or metadata_url must be set"),
      (
        #"{"type":"saml","metadata_url":"https://a","metadata_xml":"<x/>"}"#, 400,
        "Only one of metadata_xml or metadata_url needs to be set"
      ),
      (#"{"type":"saml","metadata_url":"http://idp"}"#, 400, "metadata_url is not a HTTPS URL"),
    ]
    for (body, status, message) in cases {
      let reply = await server.send(
        .post, "/admin/sso/providers", json: body, headers: server.admin)
      #expect(reply.status == status, "\(body)")
      #expect(reply.object?["msg"] as? String == message, "\(body)")
    }
  }

  @Test func anAdminListsAUsersPasskeysAndFindsNoneToDelete() async throws {
    let server = try TestServer()
    let session = try await server.signIn()
    let user = try #require((session["user"] as? [String: Any])?["id"] as? String)
    let list = await server.send(.get, "/admin/users/\(user)/passkeys", headers: server.admin)
    #expect(list.status == 200 && list.text == "[]")
    let delete = await server.send(
      .delete, "/admin/users/\(user)/passkeys/3f1b6a4e-0a52-4f6c-9f0e-2b8c1f7d9a10",
      headers: server.admin)
    #expect(delete.status == 404 && delete.object?["msg"] as? String == "Passkey not found")
    let nobody = await server.send(
      .get, "/admin/users/3f1b6a4e-0a52-4f6c-9f0e-2b8c1f7d9a10/passkeys", headers: server.admin)
    #expect(nobody.status == 404 && nobody.errorCode == "user_not_found")
  }

  @Test func openIDDiscoveryNamesTheEndpointsUnderTheIssuer() async throws {
    let server = try TestServer { $0.issuer = "http://127.0.0.1:54321/auth/v1/" }
    let reply = await server.send(.get, "/.well-known/openid-configuration")
    #expect(reply.status == 200)
    #expect(reply.header("Cache-Control") == "public, max-age=600")
    let object = try #require(reply.object)
    #expect(object["issuer"] as? String == "http://127.0.0.1:54321/auth/v1/")
    #expect(object["jwks_uri"] as? String == "http://127.0.0.1:54321/auth/v1/.well-known/jwks.json")
    #expect(object["token_endpoint"] as? String == "http://127.0.0.1:54321/auth/v1/oauth/token")
    #expect(object["registration_endpoint"] == nil)
    #expect(
      object["id_token_signing_alg_values_supported"] as? [String] == ["RS256", "HS256", "ES256"])
  }
}
