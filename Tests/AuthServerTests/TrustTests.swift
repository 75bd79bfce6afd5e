import Foundation
import GoTrue
import HTTPServer
import Testing

@testable import AuthServer
@testable import GoTrueEngine

/// No web page, crafted link or other client turns the server against its user: the
/// privileged routes answer only this machine's own requests, redirects are judged as a
/// browser reads them, and each surface takes only its own tokens.
struct TrustTests {
  private let attacker = ("Origin", "https://attacker.example")

  // MARK: The outbox and the emulator's own routes

  @Test func theOutboxAnswersNoPageOfAnotherSiteAndNoReboundHost() async throws {
    let server = try TestServer()
    try await server.engine.recover(email: "test@example.com")
    let fromPage = await server.send(.get, "/api/v1/message/latest", headers: [attacker])
    #expect(fromPage.status == 403)
    #expect(fromPage.header("Access-Control-Allow-Origin") == nil)
    #expect(!fromPage.text.contains(server.engine.outbox.messages[0].code))
    #expect(fromPage.text.contains("answers no web page of another site"))
    let preflight = await server.send(
      .options, "/api/v1/messages",
      headers: [attacker, ("Access-Control-Request-Method", "DELETE")])
    #expect(preflight.status == 403)
    #expect(preflight.header("Access-Control-Allow-Origin") == nil)
    // DNS rebinding: same origin for the browser, but the Host names the attacker's domain.
    let rebound = await server.send(
      .get, "/api/v1/messages", headers: [("Host", "attacker.example:9999")])
    #expect(rebound.status == 403)
    #expect(rebound.text.contains("Host header named another host"))
    let nullOrigin = await server.send(.get, "/api/v1/messages", headers: [("Origin", "null")])
    #expect(nullOrigin.status == 403)
    // This machine's own: no Origin (curl, the shell, test suites), or a loopback page.
    for headers in [
      [("Host", "127.0.0.1:9999")], [("Host", "localhost:9999")], [("Host", "[::1]:9999")],
      [("Host", "localhost:9999"), ("Origin", "http://localhost:5173")],
      [("Origin", "http://127.0.0.1:3000")], [],
    ] {
      let reply = await server.send(.get, "/api/v1/messages", headers: headers)
      #expect(reply.status == 200, "\(headers)")
    }
    let page = await server.send(
      .get, "/api/v1/messages", headers: [("Origin", "http://localhost:5173")])
    #expect(page.header("Access-Control-Allow-Origin") == "http://localhost:5173")
  }

  @Test func theExternalURLsHostCountsAsThisServers() async throws {
    let server = try TestServer(externalURL: "http://auth.test:9999")
    let named = await server.send(
      .get, "/api/v1/messages",
      headers: [("Host", "auth.test:9999"), ("Origin", "http://auth.test:9999")])
    #expect(named.status == 200)
    let other = await server.send(.get, "/api/v1/messages", headers: [("Host", "other.test")])
    #expect(other.status == 403)
  }

  @Test func publicRoutesKeepGoTruesCORSForBrowserAppsElsewhere() async throws {
    let server = try TestServer()
    let app = ("Origin", "https://app.example.com")
    let preflight = await server.send(
      .options, "/token",
      headers: [
        app, ("Access-Control-Request-Method", "POST"),
        ("Access-Control-Request-Headers", "authorization, content-type"),
      ])
    #expect(preflight.status == 204)
    #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example.com")
    #expect(preflight.header("Access-Control-Allow-Headers") == "authorization, content-type")
    let reply = await server.send(
      .post, "/token", json: #"{"email":"test@example.com","password":"TestPassword123!"}"#,
      query: [("grant_type", "password")], headers: [app])
    #expect(reply.status == 200)
    #expect(reply.header("Access-Control-Allow-Credentials") == "true")
  }

  @Test func bearerOwnerAndTheEmulatorsRoutesRefusePagesOfOtherSites() async throws {
    let server = try FirebaseTestServer()
    let lookup = "\(FirebaseTestServer.admin)/accounts:lookup"
    let owner = ("Authorization", "Bearer owner")
    let body = #"{"email":["test@example.com"]}"#
    let fromPage = await server.send(.post, lookup, body: body, headers: [owner, attacker])
    #expect(fromPage.status == 403)
    #expect(fromPage.googleMessage?.contains("answers no web page of another site") == true)
    let rebound = await server.send(
      .post, lookup, body: body, headers: [owner, ("Host", "attacker.example:9099")])
    #expect(rebound.status == 403)
    let setPassword = await server.send(
      .post, "\(FirebaseTestServer.v1)/accounts:update",
      body: #"{"localId":"x","password":"pwned123"}"#, headers: [owner, attacker])
    #expect(setPassword.status == 403)
    let wipe = await server.send(
      .delete, "\(FirebaseTestServer.emulator)/accounts", headers: [attacker])
    #expect(wipe.status == 403)
    #expect(try server.engine.accountCount() == 2)
    let codes = await server.send(
      .get, "\(FirebaseTestServer.emulator)/oobCodes", headers: [("Host", "attacker.example")])
    #expect(codes.status == 403)
    // firebase-admin sends no Origin, and a loopback page may.
    #expect(await server.send(.post, lookup, body: body, headers: [owner]).status == 200)
    #expect(
      await server.send(
        .post, lookup, body: body, headers: [owner, ("Origin", "http://localhost:4000")]
      ).status == 200)
  }

  @Test func theEmulatorsPreflightGrantsPagesElsewhereNeitherAuthorizationNorThePrivateNetwork()
    async throws
  {
    let server = try FirebaseTestServer()
    let asking = [
      ("Access-Control-Request-Method", "POST"),
      ("Access-Control-Request-Headers", "authorization,content-type,x-client-version"),
      ("Access-Control-Request-Private-Network", "true"),
    ]
    let elsewhere = await server.send(
      .options, "\(FirebaseTestServer.v1)/accounts:signUp", headers: [attacker] + asking)
    #expect(elsewhere.header("Access-Control-Allow-Origin") == "https://attacker.example")
    #expect(elsewhere.header("Access-Control-Allow-Headers") == "content-type,x-client-version")
    #expect(elsewhere.header("Access-Control-Allow-Private-Network") == nil)
    let local = await server.send(
      .options, "\(FirebaseTestServer.v1)/accounts:signUp",
      headers: [("Origin", "http://localhost:5173")] + asking)
    #expect(
      local.header("Access-Control-Allow-Headers")
        == "authorization,content-type,x-client-version")
    let emulatorRoute = await server.send(
      .options, "\(FirebaseTestServer.emulator)/accounts", headers: [attacker] + asking)
    #expect(emulatorRoute.status == 403)
    #expect(emulatorRoute.header("Access-Control-Allow-Origin") == nil)
  }

  // MARK: Redirects

  @Test func aBackslashRedirectCannotTakeTheSessionToAnotherHost() async throws {
    let server = try TestServer()
    let crafted = #"http://evil.example\@127.0.0.1:3000/"#
    _ = await server.send(
      .post, "/recover", json: #"{"email":"test@example.com"}"#, query: [("redirect_to", crafted)])
    let link = try #require(server.engine.outbox.newest(to: "test@example.com")?.link)
    #expect(!link.contains("evil"))
    // Even a link edited to carry it back: the check is made again, as a browser reads it.
    let token = try #require(
      URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
    let reply = await server.send(
      .get, "/verify",
      query: [("token", token), ("type", "recovery"), ("redirect_to", crafted)])
    #expect(reply.status == 303)
    let location = try #require(reply.header("Location"))
    #expect(location.hasPrefix("http://127.0.0.1:3000#access_token="))
  }

  @Test func aRedirectWithALineBreakFallsBackBeforeTheLinkIsSpent() async throws {
    let server = try TestServer()
    _ = await server.send(.post, "/recover", json: #"{"email":"test@example.com"}"#)
    let link = try #require(server.engine.outbox.newest(to: "test@example.com")?.link)
    let token = try #require(
      URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
    let reply = await server.send(
      .get, "/verify",
      query: [
        ("token", token), ("type", "recovery"),
        ("redirect_to", "http://127.0.0.1:3000/\r\nSet-Cookie: a=b"),
      ])
    #expect(reply.status == 303, "the session is handed over, not burnt in a 500")
    #expect(reply.header("Location")?.hasPrefix("http://127.0.0.1:3000#access_token=") == true)
  }

  @Test func aFirebaseContinueURLMayLeadToTheProjectsDefaultAuthorizedDomains() async throws {
    let server = try FirebaseTestServer()
    for url in [
      "http://localhost:5173/done", "http://127.0.0.1:8080/", "http://[::1]/x",
      "https://demo-app.firebaseapp.com/__/auth/action", "https://demo-app.web.app/",
    ] {
      let reply = await server.call(
        "sendOobCode",
        #"{"requestType":"PASSWORD_RESET","email":"test@example.com","continueUrl":"\#(url)"}"#)
      #expect(reply.status == 200, "\(url): \(reply.text)")
    }
    for url in ["https://other.web.app/", "https://demo-app.web.app.evil.example/"] {
      let reply = await server.call(
        "sendOobCode",
        #"{"requestType":"PASSWORD_RESET","email":"test@example.com","continueUrl":"\#(url)"}"#)
      #expect(reply.googleMessage?.hasPrefix("UNAUTHORIZED_DOMAIN") == true, "\(url)")
    }
  }

  @Test func aFirebaseContinueURLABrowserReadsAsAnotherHostIsRefused() async throws {
    let server = try FirebaseTestServer()
    let reply = await server.call(
      "sendOobCode",
      #"{"requestType":"PASSWORD_RESET","email":"test@example.com","continueUrl":"http://evil.example\\@127.0.0.1:3000/"}"#
    )
    #expect(reply.status == 400)
    #expect(reply.googleMessage?.hasPrefix("UNAUTHORIZED_DOMAIN") == true)
  }

  // MARK: Budgets, tokens, sizes and names

  @Test func linkGuessesSpendNoAccountsBudgetAndBlockNoOne() async throws {
    let server = try TestServer()
    // Far beyond the per-account budget (30) and the shared one (300).
    for guess in 0..<400 {
      let hash = String(format: "%056x", guess)
      let reply = await server.send(
        .post, "/verify", json: #"{"type":"recovery","token_hash":"\#(hash)"}"#)
      #expect(reply.status == 403, "\(guess)")
      #expect(reply.errorCode == "otp_expired")
    }
    _ = await server.send(.post, "/recover", json: #"{"email":"test@example.com"}"#)
    let code = try #require(server.engine.outbox.newest(to: "test@example.com")?.code)
    let verified = await server.send(
      .post, "/verify", json: #"{"type":"recovery","email":"test@example.com","token":"\#(code)"}"#)
    #expect(verified.status == 200)
  }

  @Test func aFirebaseIDTokenOpensNoneOfGoTruesUserRoutes() async throws {
    let server = try FirebaseTestServer()
    let signIn = await server.call(
      "signInWithPassword",
      #"{"email":"unverified@example.com","password":"Test1234","returnSecureToken":true}"#)
    let idToken = try #require(signIn.object?["idToken"] as? String)
    let bearer = [("Authorization", "Bearer \(idToken)")]
    for (method, json) in [
      (HTTPMethod.get, nil), (.put, #"{"password":"Another123"}"#), (.delete, nil),
    ] as [(HTTPMethod, String?)] {
      let reply = await server.send(method, "/user", body: json, headers: bearer)
      #expect(reply.status == 403, "\(method)")
      #expect(reply.errorCode == "unexpected_audience", "\(method)")
    }
  }

  @Test func metadataThatWouldOverflowATokenIsAClearBadRequest() async throws {
    let server = try TestServer()
    let blob = String(repeating: "x", count: 20_000)
    let reply = await server.send(
      .post, "/signup",
      json: #"{"email":"big@example.com","password":"secret12","data":{"blob":"\#(blob)"}}"#)
    #expect(reply.status == 400)
    #expect(reply.errorCode == "validation_failed")
    #expect((reply.object?["msg"] as? String)?.contains("too large") == true)
  }

  @Test func aFieldGivenTwiceInARequestBodyIsRefused() async throws {
    let server = try TestServer()
    for json in [
      #"{"email":"nobody@example.com","email":"test@example.com","password":"TestPassword123!"}"#,
      #"{"email":"nobody@example.com","EMAIL":"test@example.com","password":"TestPassword123!"}"#,
    ] {
      let reply = await server.send(
        .post, "/token", json: json, query: [("grant_type", "password")])
      #expect(reply.status == 400, "\(json)")
      #expect(reply.errorCode == "bad_json", "\(json)")
      // As curl -d sends it: JSON under a form's type is still read (and refused) as JSON.
      let curl = HTTPRequest(
        method: .post, path: "/token", query: [(name: "grant_type", value: "password")],
        headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")],
        body: Array(json.utf8), peer: "127.0.0.1:1")
      let asForm = Reply(await server.responder.answer(curl))
      #expect(asForm.errorCode == "bad_json", "\(json)")
    }
    let firebase = try FirebaseTestServer()
    let twice = await firebase.call(
      "signInWithPassword",
      #"{"email":"test@example.com","password":"x","password":"TestPassword123!"}"#)
    #expect(twice.status == 400)
    let snake = await firebase.call(
      "signInWithPassword",
      #"{"email":"test@example.com","returnSecureToken":true,"return_secure_token":false,"password":"TestPassword123!"}"#
    )
    #expect(snake.status == 400)
  }
}
