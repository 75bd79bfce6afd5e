import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import Testing

@testable import AuthServer

/// Routing, error shapes and the answers that need no account.
struct RouteTests {
  @Test func servesAtTheRootAndUnderAuthV1() async throws {
    let server = try TestServer()
    for path in ["/health", "/auth/v1/health"] {
      let reply = await server.send(.get, path)
      #expect(reply.status == 200)
      #expect(reply.object?["name"] as? String == "GoTrue")
      #expect(reply.header("Content-Type") == "application/json")
    }
    #expect(AuthResponder.apiPath("/auth/v1") == "/")
    #expect(AuthResponder.apiPath("/auth/v1x/health") == "/auth/v1x/health")
  }

  @Test func settingsSayWhatIsOn() async throws {
    let server = try TestServer { $0.autoconfirm = true }
    let settings = try #require(await server.send(.get, "/settings").object)
    #expect(settings["mailer_autoconfirm"] as? Bool == true)
    #expect(settings["disable_signup"] as? Bool == false)
    let external = try #require(settings["external"] as? [String: Bool])
    #expect(external["email"] == true)
    #expect(external.filter { $0.value }.count == 1)
  }

  @Test func unknownPathsAndMethodsAnswerAsGoTrueDoes() async throws {
    let server = try TestServer()
    let missing = await server.send(.get, "/nowhere")
    #expect(missing.status == 404)
    #expect(missing.text == "404 page not found\n")
    let wrongMethod = await server.send(.patch, "/token")
    #expect(wrongMethod.status == 405)
    #expect(wrongMethod.header("Allow") == "POST")
  }

  @Test func errorsComeInTheShapeTheRequestAsksFor() async throws {
    let server = try TestServer()
    let body = #"{"email":"test@example.com","password":"wrong-password"}"#
    let legacy = await server.send(.post, "/token", json: body, query: [("grant_type", "password")])
    #expect(legacy.status == 400)
    #expect(
      legacy.text
        == #"{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials"}"#)
    #expect(legacy.header("x-sb-error-code") == "invalid_credentials")
    #expect(legacy.header("X-Supabase-Api-Version") == nil)

    let versioned = await server.send(
      .post, "/token", json: body, query: [("grant_type", "password")],
      headers: [("X-Supabase-Api-Version", "2024-01-01")])
    #expect(
      versioned.text == #"{"code":"invalid_credentials","message":"Invalid login credentials"}"#)
    #expect(versioned.header("X-Supabase-Api-Version") == "2024-01-01")
  }

  @Test func badBodiesGetBadJSON() async throws {
    let server = try TestServer()
    let cases: [(String?, String)] = [
      (nil, "Could not parse request body as JSON: unexpected end of JSON input"),
      ("{", "Could not parse request body as JSON: unexpected end of JSON input"),
      (
        "\u{0}",
        #"Could not parse request body as JSON: invalid character '\x00' looking for beginning of value"#
      ),
      (
        "{\"email\":\"a\u{0}\"}",
        #"Could not parse request body as JSON: invalid character '\x00' in string literal"#
      ),
      (
        "[1]",
        "Could not parse request body as JSON: json: cannot unmarshal array into Go value of type object"
      ),
      (
        #"{"email":5}"#,
        "Could not parse request body as JSON: json: cannot unmarshal number into Go struct field .email of type string"
      ),
    ]
    for (body, message) in cases {
      let reply = await server.send(.post, "/signup", json: body ?? "")
      #expect(reply.status == 400)
      #expect(reply.errorCode == "bad_json")
      #expect(reply.object?["msg"] as? String == message)
    }
    // What Foundation would forgive and Go refuses: a byte-order mark, UTF-16, a trailing comma.
    let strict: [[UInt8]] = [
      [0xEF, 0xBB, 0xBF] + Array(#"{"email":"a@b.co"}"#.utf8),
      Array(#"{"email":"a@b.co"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
      Array(#"{"email":"a@b.co","password":"secret12", }"#.utf8),
      Array(#"{"list":[1,2,],"email":"a@b.co"}"#.utf8),
    ]
    for bytes in strict {
      let request = HTTPRequest(method: .post, path: "/signup", body: bytes)
      let reply = Reply(await server.responder.answer(request))
      #expect(reply.errorCode == "bad_json", "\(bytes.prefix(12))")
    }
    #expect(
      StrictJSON.problem(in: Array(#"{"a":"x,}"}"#.utf8)) == nil, "commas in strings are text")
    #expect(StrictJSON.problem(in: Array(#"{"a":"\",]"}"#.utf8)) == nil, "so are escaped quotes")

    // Field names match whatever their case, as Go's decoder matches them.
    let reply = await server.send(
      .post, "/signup", json: #"{"EMAIL":"ada@example.com","Password":"secret12"}"#)
    #expect(reply.status == 200)
  }

  @Test func corsLetsBrowserAppsIn() async throws {
    let server = try TestServer()
    let preflight = await server.send(
      .options, "/auth/v1/token",
      headers: [
        ("Origin", "http://localhost:5173"), ("Access-Control-Request-Method", "post"),
        ("Access-Control-Request-Headers", "authorization, content-type, x-evil"),
      ])
    #expect(preflight.status == 204)
    #expect(preflight.header("Access-Control-Allow-Origin") == "http://localhost:5173")
    #expect(preflight.header("Access-Control-Allow-Methods") == "POST")
    #expect(preflight.header("Access-Control-Allow-Headers") == "authorization, content-type")
    let simple = await server.send(.get, "/health", headers: [("Origin", "http://localhost:5173")])
    #expect(simple.header("Access-Control-Expose-Headers")?.contains("X-Total-Count") == true)
    #expect(await server.send(.get, "/health").header("Access-Control-Allow-Origin") == nil)
  }

  @Test func featuresThatAreOffAnswerLikeAGoTrueWithThemOff() async throws {
    let server = try TestServer()
    let token = try #require(try await server.signIn()["access_token"] as? String)
    let bearer = [("Authorization", "Bearer \(token)")]
    let cases: [(HTTPMethod, String, String?, [(String, String)], Int, String)] = [
      (.post, "/signup", "{}", [], 422, "anonymous_provider_disabled"),
      (
        .post, "/signup", #"{"phone":"+15555550100","password":"secret12"}"#, [], 400,
        "phone_provider_disabled"
      ),
      (.post, "/factors", #"{"factor_type":"phone"}"#, bearer, 422, "mfa_phone_enroll_not_enabled"),
      (.post, "/sso", "{}", [], 404, "saml_provider_disabled"),
      (.get, "/sso/saml/metadata", nil, [], 404, "saml_provider_disabled"),
      (.get, "/user/identities/authorize", nil, bearer, 404, "manual_linking_disabled"),
      (.get, "/passkeys/registration", nil, [], 404, "passkey_disabled"),
      (.get, "/oauth/clients", nil, [], 404, "feature_disabled"),
      (.post, "/otp", #"{"phone":"+15555550100"}"#, [], 400, "phone_provider_disabled"),
      (
        .post, "/resend", #"{"type":"sms","phone":"+15555550100"}"#, [], 400,
        "phone_provider_disabled"
      ),
    ]
    for (method, path, body, headers, status, code) in cases {
      let reply = await server.send(method, path, json: body, headers: headers)
      #expect(reply.status == status, "\(method) \(path)")
      #expect(reply.errorCode == code, "\(method) \(path): \(reply.text)")
    }
    let authorize = await server.send(.get, "/authorize", query: [("provider", "github")])
    #expect(authorize.object?["msg"] as? String == "Unsupported provider: provider is not enabled")
    for (provider, reason) in [
      ("GitHub", "provider is not enabled"), ("email", "Provider email could not be found"),
      ("custom:acme", "custom OAuth providers are disabled"),
    ] {
      let reply = await server.send(.get, "/authorize", query: [("provider", provider)])
      #expect(reply.object?["msg"] as? String == "Unsupported provider: " + reason, "\(provider)")
    }
    let callback = await server.send(.get, "/callback")
    #expect(callback.status == 303)
    let error =
      #"{"code":400,"error_code":"bad_oauth_callback","msg":"OAuth state parameter missing"}"#
    #expect(callback.text.hasPrefix("<a href=") && callback.text.hasSuffix(".\n\n" + error))
    let posted = await server.send(.post, "/callback")
    #expect(posted.status == 303 && posted.text == error)
    #expect(posted.header("Content-Type") == "text/plain; charset=utf-8")
    #expect(callback.header("Location")?.contains("error_code=bad_oauth_callback") == true)
    #expect(await server.send(.get, "/.well-known/jwks.json").text == #"{"keys":[]}"#)
  }

  @Test func untilTheEngineIsInstalledTheServerSaysItIsStarting() async throws {
    let slot = ResponderSlot()
    let request = HTTPRequest(method: .get, path: "/health")
    #expect(slot.immediateAnswer(request)?.status == 503)
    let server = try TestServer()
    slot.install(server.responder)
    #expect(slot.immediateAnswer(request)?.status == 200)
  }

  @Test func theAccessLogEscapesWhatCouldForgeALine() {
    #expect(AccessLog.visible("/user\r\nGET /admin 200") == "/user\\xD\\xAGET\\x20/admin\\x20200")
    #expect(AccessLog.visible("/ok/é") == "/ok/é")
  }
}
