import AuthCrypto
import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import Testing

@testable import AuthServer

/// GoTrue's OAuth 2.1 server as serve answers it: off, every route of its groups says so after
/// the group's own check; on, the admin's clients, the authorization-code flow with PKCE, the
/// token endpoint's client authentication and OAuth-shaped refusals, and the user's grants.
struct OAuthServerRoutesTests {
  static let redirect = "http://localhost:4000/cb"

  private func onServer() throws -> TestServer {
    try TestServer { configuration in
      configuration.oauthServer.enabled = true
      configuration.oauthServer.authorizationPath = "oauth/consent"
    }
  }

  @Test func offEveryRouteSaysSoAfterItsGroupsCheck() async throws {
    let server = try TestServer()
    for (method, path) in [
      (HTTPMethod.get, "/admin/oauth/clients"), (.patch, "/admin/oauth/clients/x"),
      (.get, "/admin/oauth/elsewhere"),
    ] {
      let stranger = await server.send(method, path)
      #expect(stranger.status == 401 && stranger.errorCode == "no_authorization", "\(path)")
      let admin = await server.send(method, path, headers: server.admin)
      #expect(admin.status == 404 && admin.errorCode == "feature_disabled", "\(path)")
      #expect(admin.object?["msg"] as? String == "OAuth server is disabled")
    }
    for (method, path) in [
      (HTTPMethod.get, "/oauth/token"), (.post, "/oauth/authorize"), (.put, "/oauth/x/y"),
      (.get, "/.well-known/oauth-authorization-server"),
    ] {
      let reply = await server.send(method, path)
      #expect(reply.status == 404 && reply.errorCode == "feature_disabled", "\(method) \(path)")
    }
    let grants = await server.send(.get, "/user/oauth/grants")
    #expect(grants.errorCode == "no_authorization")
    let token = try #require(try await server.signIn()["access_token"] as? String)
    let user = await server.send(
      .post, "/user/oauth/grants", headers: [("Authorization", "Bearer " + token)])
    #expect(user.status == 404 && user.errorCode == "feature_disabled")
    let discovery = await server.send(.post, "/.well-known/oauth-authorization-server")
    #expect(discovery.status == 405)
  }

  @Test func onTheRoutesOfTheGroupsAreGoTruesAndOthersAreNotFound() async throws {
    let server = try onServer()
    let unknown = await server.send(.get, "/oauth/elsewhere")
    #expect(unknown.status == 404 && unknown.text == "404 page not found\n")
    let method = await server.send(.get, "/oauth/token")
    #expect(method.status == 405)
    #expect(method.headers.filter { $0.name == "Allow" }.map(\.value) == ["POST"])
    let discovery = try #require(
      await server.send(.get, "/auth/v1/.well-known/oauth-authorization-server").object)
    #expect(discovery["authorization_endpoint"] as? String == "/oauth/authorize")
    #expect(discovery["registration_endpoint"] == nil)
  }

  @Test func aClientsSecretIsShownOnceAndKeptAsItsHash() async throws {
    let server = try onServer()
    let made = await server.send(
      .post, "/admin/oauth/clients",
      json: #"{"client_name":"App","redirect_uris":["\#(Self.redirect)"],"CLIENT_URI":null}"#,
      headers: server.admin)
    #expect(made.status == 201)
    let client = try #require(made.object)
    let id = try #require(client["client_id"] as? String)
    let secret = try #require(client["client_secret"] as? String)
    #expect(client["token_endpoint_auth_method"] as? String == "client_secret_basic")
    #expect(client["client_uri"] == nil)
    let stored = try server.engine.oauthClient(id: id.uppercased())
    #expect(stored.secretHash == Base64URL.encode(SHA256.hash(secret)))
    let shown = try #require(
      await server.send(.get, "/admin/oauth/clients/\(id)", headers: server.admin).object)
    #expect(shown["client_secret"] == nil && shown["client_name"] as? String == "App")
    let notUUID = await server.send(.get, "/admin/oauth/clients/nope", headers: server.admin)
    #expect(
      notUUID.status == 400 && notUUID.object?["msg"] as? String == "invalid client_id format")
    let badJSON = await server.send(
      .put, "/admin/oauth/clients/\(id)", json: #"{"client_name":1}"#, headers: server.admin)
    #expect(badJSON.status == 400 && badJSON.errorCode == "bad_json")
    let empty = await server.send(
      .put, "/admin/oauth/clients/\(id)", json: "{}", headers: server.admin)
    #expect(empty.object?["msg"] as? String == "No fields provided for update")
    let wrongMethod = await server.send(
      .put, "/admin/oauth/clients/\(id)", json: #"{"token_endpoint_auth_method":"none"}"#,
      headers: server.admin)
    #expect(
      wrongMethod.object?["msg"] as? String
        == "token_endpoint_auth_method 'none' is not valid for client_type 'confidential'; "
        + "valid methods: [client_secret_basic client_secret_post]")
  }

  @Test(arguments: [
    ("http://localhost:3000/cb", nil), ("myapp://callback", nil),
    ("http://[::1]:8080/cb", nil),
    ("https://app.example/cb#x", "fragment not allowed in redirect URI"),
    ("http://app.example/cb", "HTTP scheme only allowed for localhost"),
    ("javascript://x/alert", "scheme 'javascript' is not allowed for security reasons"),
    ("/relative", "must have scheme and host"), ("https://a b/", "invalid URL format"),
  ])
  func redirectURIsAreJudgedAsGoTrueJudgesThem(uri: String, problem: String?) {
    #expect(OAuthClientRulesProbe.problem(uri) == problem, "\(uri)")
  }

  @Test func theCodeFlowWithPKCEEndsInATokenOfTheClient() async throws {
    let server = try onServer()
    let made = try #require(
      await server.send(
        .post, "/admin/oauth/clients",
        json: #"{"redirect_uris":["\#(Self.redirect)"],"token_endpoint_auth_method":"none"}"#,
        headers: server.admin
      ).object)
    let id = try #require(made["client_id"] as? String)
    #expect(made["client_secret"] == nil && made["client_type"] as? String == "public")
    let verifier = String(repeating: "v", count: 50)
    let challenge = Base64URL.encode(SHA256.hash(verifier))
    let authorize = await server.send(
      .get, "/oauth/authorize",
      query: [
        ("client_id", id), ("redirect_uri", Self.redirect), ("state", "a b"),
        ("code_challenge", challenge), ("code_challenge_method", "S256"),
      ])
    #expect(authorize.status == 302)
    let consentPage = try #require(authorize.header("Location"))
    #expect(consentPage.hasPrefix("http://127.0.0.1:3000/oauth/consent?authorization_id="))
    let authorizationID = String(consentPage.split(separator: "=").last ?? "")
    let bearer = [
      (
        "Authorization",
        "Bearer " + (try #require(try await server.signIn()["access_token"] as? String))
      )
    ]
    let details = try #require(
      await server.send(.get, "/oauth/authorizations/\(authorizationID)", headers: bearer).object)
    #expect(details["scope"] as? String == "email")
    let foreign = await server.send(
      .post, "/oauth/authorizations/\(authorizationID)/consent", json: #"{"action":"approve"}"#,
      headers: bearer + [("Origin", "https://evil.example")])
    #expect(foreign.object?["msg"] as? String == "unauthorized request origin")
    let approved = try #require(
      await server.send(
        .post, "/oauth/authorizations/\(authorizationID)/consent", json: #"{"action":"approve"}"#,
        headers: bearer
      ).object)
    let back = try #require(approved["redirect_url"] as? String)
    #expect(back.hasPrefix(Self.redirect + "?code=") && back.hasSuffix("&state=a+b"))
    let code = String(back.dropFirst((Self.redirect + "?code=").count).prefix { $0 != "&" })

    let form = { (pairs: [(String, String)]) in
      Array(FormEncoding.encode(pairs).utf8)
    }
    let post = { (pairs: [(String, String)]) async -> Reply in
      await answer(
        of: server.responder, method: "POST", path: "/oauth/token", query: [],
        headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form(pairs))
    }
    let noClient = await post([("grant_type", "authorization_code"), ("code", code)])
    #expect(noClient.errorCode == "invalid_credentials")
    #expect(
      noClient.object?["msg"] as? String == "Invalid client credentials: client_id is required")
    let wrongVerifier = await post([
      ("grant_type", "authorization_code"), ("code", code), ("client_id", id),
      ("code_verifier", "w"),
    ])
    #expect(wrongVerifier.status == 400 && wrongVerifier.header("x-sb-error-code") == nil)
    #expect(
      wrongVerifier.object as? [String: String] == [
        "error": "invalid_grant",
        "error_description":
          "PKCE verification failed: code challenge does not match previously saved code verifier",
      ])
    let tokens = try #require(
      await post([
        ("grant_type", "authorization_code"), ("code", code), ("client_id", id),
        ("code_verifier", verifier),
      ]).object)
    let access = try #require(tokens["access_token"] as? String)
    let claims = try JSONWebToken.verify(
      access, keys: server.engine.tokenKeys, now: Int(server.clock.now.timeIntervalSince1970))
    #expect(claims["client_id"]?.stringValue == id && claims["scope"]?.stringValue == "email")
    #expect(tokens["user"] == nil)
    let grants = await server.send(.get, "/user/oauth/grants", headers: bearer)
    let list = try #require(
      (try? JSONSerialization.jsonObject(with: Data(grants.body))) as? [[String: Any]])
    #expect(list.count == 1 && (list.first?["scopes"] as? [String]) == ["email"])
  }
}

/// The engine's redirect URI rule, as the tests read it.
enum OAuthClientRulesProbe {
  static func problem(_ uri: String) -> String? {
    var registration = OAuthClientRegistration()
    registration.redirectURIs = [uri]
    let server = try? TestServer { $0.oauthServer.enabled = true }
    do {
      _ = try server?.engine.registerOAuthClient(registration, dynamic: false)
      return nil
    } catch {
      guard case .api(let error) = error else { return "\(error)" }
      let prefix = "400: invalid redirect_uri '\(uri)': "
      return error.message.hasPrefix(prefix)
        ? String(error.message.dropFirst(prefix.count)) : error.message
    }
  }
}
