import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// The Firebase surface's routing, callers and error bodies.
struct FirebaseRouteTests {
  @Test func errorsAreTheEmulatorsBytesAndResultsAreCompact() async throws {
    let server = try FirebaseTestServer()
    let taken = await server.call("signUp", #"{"email":"test@example.com","password":"secret123"}"#)
    #expect(taken.status == 400)
    #expect(taken.header("Content-Type") == "application/json; charset=utf-8")
    #expect(taken.text == Reply.badRequestBody("EMAIL_EXISTS"))
    let made = await server.call("signUp", #"{"email":"new@example.com","password":"secret123"}"#)
    #expect(made.header("Content-Type") == "application/json")
    #expect(made.text.hasPrefix(#"{"kind":"identitytoolkit#SignupNewUserResponse","localId":""#))
    #expect(!made.text.contains("\n"))
  }

  @Test func theRootSaysTheEmulatorIsReadyAndUnknownPathsAreGoogles404() async throws {
    let server = try FirebaseTestServer()
    let root = await server.send(.get, "/")
    #expect(
      root.text == """
        {
          "authEmulator": {
            "ready": true,
            "docs": "https://firebase.google.com/docs/emulator-suite",
            "apiSpec": "/emulator/openapi.json"
          }
        }
        """)
    for (method, path) in [
      (HTTPMethod.get, "/identitytoolkit.googleapis.com/v1/accounts:nothing"),
      (.get, "/identitytoolkit.googleapis.com/v1/accounts:signUp"),
      (.post, "/emulator/nowhere"), (.get, "/securetoken.googleapis.com/v1/token"),
    ] {
      let missing = await server.send(method, path)
      #expect(missing.status == 404)
      #expect(
        missing.text == """
          {
            "error": {
              "code": 404,
              "message": "Not Found",
              "errors": [
                {
                  "message": "Not Found",
                  "reason": "notFound"
                }
              ],
              "status": "NOT_FOUND"
            }
          }
          """)
    }
    // GoTrue's routes and answers are untouched.
    #expect(await server.send(.get, "/nowhere").text == "404 page not found\n")
    #expect(await server.send(.get, "/health").status == 200)
  }

  @Test func publicCallsNeedAnAPIKey() async throws {
    let server = try FirebaseTestServer()
    let body = #"{"email":"test@example.com","password":"TestPassword123!"}"#
    let path = "\(FirebaseTestServer.v1)/accounts:signInWithPassword"
    let none = await server.send(.post, path, body: body)
    #expect(none.status == 403)
    #expect(
      none.text == """
        {
          "error": {
            "code": 403,
            "message": "The request is missing a valid API key.",
            "errors": [
              {
                "message": "The request is missing a valid API key.",
                "reason": "forbidden",
                "domain": "global"
              }
            ],
            "status": "PERMISSION_DENIED"
          }
        }
        """)
    #expect(await server.send(.post, path, body: body, query: [("key", "")]).status == 403)
    #expect(await server.send(.post, path, body: body, query: [("key", "any")]).status == 200)
    let header = await server.send(.post, path, body: body, headers: [("x-goog-api-key", "any")])
    #expect(header.status == 200)
    let wrongBearer = await server.send(
      .post, path, body: body, query: [("key", "any")], headers: [("Authorization", "Bearer x")])
    #expect(wrongBearer.status == 401)
    let error = try #require(wrongBearer.object?["error"] as? [String: Any])
    #expect(error["status"] as? String == "UNAUTHENTICATED")
    let item = try #require((error["errors"] as? [[String: String]])?.first)
    #expect(item["reason"] == "authError")
    #expect(item["location"] == "Authorization")
  }

  @Test func adminCallsNeedOwnerFromThisMachineOrTheServiceRoleKey() async throws {
    let server = try FirebaseTestServer()
    let path = "\(FirebaseTestServer.admin)/accounts:lookup"
    let body = #"{"email":["test@example.com"]}"#
    let withKey = await server.send(.post, path, body: body, query: [("key", "k")])
    #expect(
      withKey.text
        == Reply.badRequestBody(
          "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id."))
    #expect(await server.send(.post, path, body: body).status == 403)
    for bearer in ["owner", "OWNER", "ya29.token"] {
      let reply = await server.send(
        .post, path, body: body, headers: [("authorization", "bearer \(bearer)")])
      #expect(reply.status == 200, "\(bearer)")
    }
    let afar = await server.send(
      .post, path, body: body, headers: [("Authorization", "Bearer owner")],
      peer: "192.0.2.1:4000")
    #expect(afar.status == 403)
    #expect(afar.googleMessage?.contains("service_role") == true)
    let service = await server.send(
      .post, path, body: body,
      headers: [("Authorization", "Bearer " + server.engine.apiKey(role: "service_role"))],
      peer: "192.0.2.1:4000")
    #expect(service.status == 200)
    let anon = await server.send(
      .post, path, body: body,
      headers: [("Authorization", "Bearer " + server.engine.apiKey(role: "anon"))])
    #expect(anon.status == 401)
    // The emulator's own routes answer only this machine.
    let codes = await server.send(
      .get, "\(FirebaseTestServer.emulator)/oobCodes", peer: "192.0.2.1:4000")
    #expect(codes.status == 403)
  }

  @Test func anotherProjectIsRefusedAsInSingleProjectMode() async throws {
    let server = try FirebaseTestServer()
    for (method, path) in [
      (HTTPMethod.post, "/identitytoolkit.googleapis.com/v1/projects/other/accounts:lookup"),
      (.get, "/emulator/v1/projects/other/oobCodes"),
    ] {
      let reply = await server.send(
        method, path, body: method == .post ? "{}" : nil,
        headers: [("Authorization", "Bearer owner")])
      #expect(reply.status == 400)
      #expect(
        reply.googleMessage
          == "Multiple projectIds are not recommended in single project mode. Requested project ID other, but the emulator is configured for demo-app. authflow serve serves one project: start it with --firebase-project other to serve that one."
      )
    }
  }

  @Test func legacyV3PathsAreTheV1Operations() async throws {
    let server = try FirebaseTestServer()
    let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    let signIn = await server.send(
      .post, "\(legacy)/verifyPassword",
      body: #"{"email":"test@example.com","password":"TestPassword123!","returnSecureToken":true}"#,
      query: [("key", "k")])
    #expect(signIn.object?["kind"] as? String == "identitytoolkit#VerifyPasswordResponse")
    let idToken = try #require(signIn.object?["idToken"] as? String)
    let info = await server.send(
      .post, "\(legacy)/getAccountInfo", body: #"{"idToken":"\#(idToken)"}"#,
      query: [("key", "k")])
    #expect(info.object?["kind"] as? String == "identitytoolkit#GetAccountInfoResponse")
    let made = await server.send(
      .post, "\(legacy)/signupNewUser", body: #"{"email":"v3@example.com","password":"secret123"}"#,
      query: [("key", "k")])
    #expect(made.status == 200)
    let code = await server.send(
      .post, "\(legacy)/getOobConfirmationCode",
      body: #"{"requestType":"PASSWORD_RESET","email":"v3@example.com"}"#, query: [("key", "k")])
    #expect(code.object?["email"] as? String == "v3@example.com")
    let listed = try await server.oobCodes()
    let oobCode = try #require(listed.first?["oobCode"])
    for (old, body) in [
      ("resetPassword", #"{"oobCode":"\#(oobCode)","newPassword":"secret456"}"#),
      ("setAccountInfo", #"{"idToken":"\#(idToken)","displayName":"T"}"#),
      ("deleteAccount", #"{"idToken":"\#(idToken)"}"#),
    ] {
      let reply = await server.send(.post, "\(legacy)/\(old)", body: body, query: [("key", "k")])
      #expect(reply.status == 200, "\(old): \(reply.text)")
    }
    #expect(FirebaseRoutes.rewritten("\(legacy)/unknown") == "\(legacy)/unknown")
    #expect(await server.send(.post, "\(legacy)/unknown", body: "{}").status == 404)
    let custom = await server.send(
      .post, "\(legacy)/verifyCustomToken", body: "{}", query: [("key", "k")])
    #expect(custom.text == Reply.badRequestBody("MISSING_CUSTOM_TOKEN"))
    let phone = await server.send(
      .post, "\(legacy)/verifyPhoneNumber", body: "{}", query: [("key", "k")])
    #expect(phone.text == Reply.badRequestBody("MISSING_SESSION_INFO"))
  }

  @Test func bodiesAreReadAsTheEmulatorReadsThem() async throws {
    let server = try FirebaseTestServer()
    let snake = await server.call(
      "signInWithPassword",
      #"{"email":"test@example.com","password":"TestPassword123!","return_secure_token":true}"#)
    #expect(snake.status == 200)
    let notJSON = await server.call("signUp", "{")
    #expect(notJSON.status == 400)
    let error = try #require(notJSON.object?["error"] as? [String: Any])
    #expect(error["status"] as? String == "INVALID_ARGUMENT")
    #expect((error["message"] as? String)?.hasPrefix("Invalid JSON payload received.") == true)
    let wrongType = await server.call("signUp", #"{"email":true,"password":"x"}"#)
    #expect(wrongType.googleMessage == "Invalid JSON payload received. /email should be string")
    let empty = await server.call("signInWithPassword", "")
    #expect(empty.text == Reply.badRequestBody("MISSING_EMAIL"))
    // lodash's camelCase, as the emulator applies it to every key.
    let cases = [
      ("grant_type", "grantType"), ("localId", "localId"), ("photoURL", "photoUrl"),
      ("PhotoUrl", "photoUrl"), ("iOSBundleId", "iOsBundleId"),
      (
        "return-secure-token",
        "returnSecureToken"
      ), ("sha256Hash", "sha256Hash"), ("a1b", "a1B"), ("EMAIL", "email"),
      ("__id_token__", "idToken"), ("URLValue", "urlValue"),
    ]
    for (key, camel) in cases { #expect(FirebaseBody.camelCased(key) == camel, "\(key)") }
  }

  @Test func aKeyInAnyCaseReachesItsMemberAsTheEmulatorCamelCasesIt() async throws {
    let server = try FirebaseTestServer()
    let made = await server.call(
      "signUp", #"{"email":"pyre@example.com","password":"secret123","return_secure_token":true}"#)
    let token = try #require(made.object?["idToken"] as? String)
    let updated = await server.call(
      "update", #"{"idToken":"\#(token)","photoURL":"https://example.com/p.png","DisplayName":"P"}"#
    )
    #expect(updated.object?["photoUrl"] as? String == "https://example.com/p.png")
    #expect(updated.object?["displayName"] as? String == "P")
  }

  @Test func anOperationOfTheEmulatorsAPINotServedIsA501InItsShape() async throws {
    let server = try FirebaseTestServer()
    let policy = await server.send(
      .get, "/identitytoolkit.googleapis.com/v2/passwordPolicy", query: [("key", "k")])
    #expect(policy.status == 501)
    let error = try #require(policy.object?["error"] as? [String: Any])
    #expect(error["status"] as? String == "NOT_IMPLEMENTED")
    #expect(
      error["message"] as? String
        == "identitytoolkit.getPasswordPolicy is not implemented in the Auth Emulator.")
    let tenant = await server.send(
      .post, "/identitytoolkit.googleapis.com/v2/projects/demo-app/tenants",
      body: #"{"displayName":"t"}"#, headers: [("Authorization", "Bearer owner")])
    #expect(tenant.status == 501)
    #expect(
      tenant.googleMessage
        == "identitytoolkit.projects.tenants.create is not implemented in authflow serve.")
    let nowhere = await server.send(.get, "/identitytoolkit.googleapis.com/v2/nowhere")
    #expect(nowhere.status == 404)
  }

  @Test func theProjectComesFromTheFlagOrTheEnvironment() async throws {
    let flag = try ServeOptions.parse(["--firebase-project", "demo-app"], environment: [:])
    #expect(flag.firebaseProject == "demo-app")
    let variable = try ServeOptions.parse(
      [], environment: ["AUTHFLOW_FIREBASE_PROJECT": "my-project"])
    #expect(variable.firebaseProject == "my-project")
    #expect(try ServeOptions.parse([], environment: [:]).firebaseProject == nil)
    #expect(throws: (any Error).self) {
      try ServeOptions.parse(["--firebase-project", "two words"], environment: [:])
    }
    #expect(ServeOptions.usage.contains("--firebase-project ID"))
    // Without a project the Firebase paths are GoTrue's unknown paths, as before.
    let plain = try TestServer()
    #expect(await plain.send(.get, "/").text == "404 page not found\n")
    let missing = await plain.send(.post, "/identitytoolkit.googleapis.com/v1/accounts:signUp")
    #expect(missing.text == "404 page not found\n")
  }

  @Test func crossOriginCallsAreAllowedAsTheEmulatorAllowsThem() async throws {
    let server = try FirebaseTestServer()
    let preflight = await server.send(
      .options, "\(FirebaseTestServer.v1)/accounts:signUp",
      headers: [
        ("Origin", "http://localhost:5173"), ("Access-Control-Request-Method", "POST"),
        ("Access-Control-Request-Headers", "content-type,x-firebase-gmpid,x-client-version"),
        ("Access-Control-Request-Private-Network", "true"),
      ])
    #expect(preflight.status == 204)
    #expect(preflight.header("Access-Control-Allow-Origin") == "http://localhost:5173")
    #expect(
      preflight.header("Access-Control-Allow-Headers")
        == "content-type,x-firebase-gmpid,x-client-version")
    #expect(preflight.header("Access-Control-Allow-Private-Network") == "true")
    let answer = await server.send(
      .post, "\(FirebaseTestServer.v1)/accounts:lookup", body: "{}", query: [("key", "k")],
      headers: [("Origin", "http://localhost:5173")])
    #expect(answer.header("Access-Control-Allow-Origin") == "http://localhost:5173")
    #expect(answer.header("Access-Control-Allow-Credentials") == nil)
  }
}
