import AuthCrypto
import Foundation
import GoTrue
import HTTPServer
import Testing

@testable import AuthServer
@testable import GoTrueEngine

/// Accounts, sessions, codes and the admin API over the routes.
struct FlowTests {
  @Test func signupChecksComeInGoTruesOrder() async throws {
    let closed = try TestServer { $0.disableSignup = true }
    #expect(
      await closed.send(.post, "/signup", json: #"{"email":"a@b.co"}"#).errorCode
        == "signup_disabled")
    let server = try TestServer()
    let cases: [(String, Int, String)] = [
      (#"{"email":"a@b.co"}"#, 400, "Signup requires a valid password"),
      (#"{"email":"a@b.co","password":"12345"}"#, 422, "Password should be at least 6 characters."),
      (
        #"{"email":"a@b.co","phone":"+15555550100","password":"secret12"}"#, 400,
        "Only an email address or phone number should be provided on signup."
      ),
      (
        #"{"email":"not-an-email","password":"secret12"}"#, 400,
        "Unable to validate email address: invalid format"
      ),
    ]
    for (body, status, message) in cases {
      let reply = await server.send(.post, "/signup", json: body)
      #expect(reply.status == status, "\(body)")
      #expect(reply.object?["msg"] as? String == message, "\(body)")
    }
    let weak = await server.send(
      .post, "/signup", json: #"{"email":"a@b.co","password":"12345"}"#,
      headers: [("X-Supabase-Api-Version", "2024-01-01")])
    #expect(weak.object?["weak_password"] as? [String: [String]] == ["reasons": ["length"]])
  }

  @Test func aPasswordGrantSaysWhetherThePasswordIsStillStrongEnough() async throws {
    let server = try TestServer()
    let session = try await server.signIn()
    #expect(session.keys.contains("weak_password"))
    #expect(session["weak_password"] is NSNull)
    let stricter = try TestServer { $0.minimumPasswordLength = 20 }
    let strict = try await stricter.signIn()
    let weakness = try #require(strict["weak_password"] as? [String: Any])
    #expect(weakness["reasons"] as? [String] == ["length"])
  }

  @Test func tokenGrantsReadFormsTooAndRefuseUnknownGrants() async throws {
    let server = try TestServer()
    let form = await server.send(
      .post, "/token", json: nil,
      headers: [("Content-Type", "application/x-www-form-urlencoded")],
      peer: "127.0.0.1:1")
    #expect(form.status == 400)
    #expect(form.object?["msg"] as? String == "unsupported_grant_type")
    let request = HTTPRequest(
      method: .post, path: "/token",
      headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")],
      body: Array("grant_type=password&email=test%40example.com&password=TestPassword123%21".utf8))
    #expect(await server.responder.answer(request).status == 200)
    let pkce = await server.send(
      .post, "/token", json: #"{"auth_code":"x","code_verifier":"y"}"#,
      query: [("grant_type", "pkce")])
    #expect(pkce.errorCode == "flow_state_not_found")
  }

  @Test func refreshLogoutAndTheUserRoutes() async throws {
    let server = try TestServer()
    let session = try await server.signIn()
    let token = try #require(session["access_token"] as? String)
    let bearer = [("Authorization", "Bearer \(token)")]
    #expect(await server.send(.get, "/user").status == 401)
    #expect(await server.send(.get, "/user", headers: [("Authorization", "Basic x")]).status == 401)
    #expect(
      await server.send(.get, "/user", headers: bearer).object?["email"] as? String
        == "test@example.com")

    let updated = await server.send(
      .put, "/user", json: #"{"data":{"plan":"pro"}}"#, headers: bearer)
    #expect((updated.object?["user_metadata"] as? [String: Any])?["plan"] as? String == "pro")

    let refreshed = await server.send(
      .post, "/token", json: #"{"refresh_token":"\#(session["refresh_token"] as? String ?? "")"}"#,
      query: [("grant_type", "refresh_token")])
    #expect(refreshed.status == 200)

    let badScope = await server.send(.post, "/logout", query: [("scope", "all")], headers: bearer)
    #expect(badScope.object?["msg"] as? String == #"Unsupported logout scope "all""#)
    let out = await server.send(.post, "/logout", headers: bearer)
    #expect(out.status == 204)
    #expect(out.body.isEmpty)
    #expect(await server.send(.get, "/user", headers: bearer).errorCode == "session_not_found")
  }

  @Test func aRecoveryCodeFromTheMailboxSignsIn() async throws {
    let server = try TestServer()
    #expect(
      await server.send(.post, "/recover", json: #"{"email":"test@example.com"}"#).text == "{}")
    #expect(
      await server.send(.post, "/recover", json: #"{"email":"nobody@example.com"}"#).text == "{}")
    let message = try #require(
      await server.send(.get, "/api/v1/message/latest", query: [("query", "to:test@example.com")])
        .object)
    let text = try #require(message["Text"] as? String)
    let code = try #require(text.split(separator: " ").last.map { String($0.prefix(6)) })
    let reply = await server.send(
      .post, "/verify", json: #"{"type":"recovery","email":"test@example.com","token":"\#(code)"}"#)
    #expect(reply.status == 200)
    #expect(reply.object?["access_token"] is String)

    let again = await server.send(
      .post, "/verify", json: #"{"type":"recovery","email":"test@example.com","token":"\#(code)"}"#)
    #expect(again.status == 403)
    #expect(again.errorCode == "otp_expired", "GoTrue's code on the wire")
    #expect(again.header(GoTrueErrorBody.otpReasonHeader) == "used", "authflow's detail beside it")
  }

  @Test func verifyChecksItsParameters() async throws {
    let server = try TestServer()
    let cases: [(String, Int, String)] = [
      (#"{"token":"123456","email":"a@b.co"}"#, 400, "Verify requires a verification type"),
      (#"{"type":"signup"}"#, 400, "Verify requires either a token or a token hash"),
      (
        #"{"type":"signup","token":"1","token_hash":"2"}"#, 400,
        "Verify requires either a token or a token hash"
      ),
      (#"{"type":"nope","token":"123456","email":"a@b.co"}"#, 400, "Unsupported verification type"),
      (
        #"{"type":"signup","token":"123456"}"#, 400,
        "Only an email address or phone number should be provided on verify"
      ),
      (#"{"type":"signup","token":"123456","email":"nope"}"#, 422, "Invalid email format"),
      (
        #"{"type":"signup","token_hash":"ab","email":"a@b.co"}"#, 400,
        "Only the token_hash and type should be provided"
      ),
      (
        #"{"type":"signup","token":"123456","email":"a@b.co"}"#, 403,
        "Token has expired or is invalid"
      ),
      (#"{"type":"signup","token_hash":"abcd"}"#, 403, "Email link is invalid or has expired"),
      (
        #"{"type":"sms","token":"123456","phone":"+15555550100"}"#, 403,
        "Token has expired or is invalid"
      ),
    ]
    for (body, status, message) in cases {
      let reply = await server.send(.post, "/verify", json: body)
      #expect(reply.status == status, "\(body)")
      #expect(reply.object?["msg"] as? String == message, "\(body)")
    }
  }

  @Test func theEmailedLinkVerifiesAndRedirectsWithTheSessionInTheFragment() async throws {
    let server = try TestServer()
    _ = await server.send(
      .post, "/resend", json: #"{"type":"signup","email":"unverified@example.com"}"#,
      query: [("redirect_to", "http://127.0.0.1:3000/welcome#old")])
    let link = try #require(server.engine.outbox.newest(to: "unverified@example.com")?.link)
    let components = try #require(URLComponents(string: link))
    #expect(components.path == "/verify")
    let query = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }

    let reply = await server.send(.get, "/verify", query: query)
    #expect(reply.status == 303)
    let location = try #require(reply.header("Location"))
    #expect(location.hasPrefix("http://127.0.0.1:3000/welcome#access_token="))
    let fragment = String(location.split(separator: "#")[1])
    let keys = fragment.split(separator: "&").map { String($0.split(separator: "=")[0]) }
    #expect(
      keys == [
        "access_token", "expires_at", "expires_in", "refresh_token", "sb", "token_type", "type",
      ])
    #expect(fragment.hasSuffix("&sb=&token_type=bearer&type=signup"))

    let again = await server.send(.get, "/verify", query: query)
    #expect(
      again.header("Location")
        == "http://127.0.0.1:3000/welcome#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb="
    )
    let missing = await server.send(.get, "/verify", query: [("type", "signup")])
    #expect(missing.status == 400, "parameter mistakes are JSON, not redirects")
  }

  @Test func signInCodesAndResend() async throws {
    let server = try TestServer()
    #expect(await server.send(.post, "/otp", json: #"{"email":"new@example.com"}"#).text == "{}")
    let refused = await server.send(
      .post, "/otp", json: #"{"email":"other@example.com","create_user":false}"#)
    #expect(refused.errorCode == "otp_disabled")
    #expect(
      await server.send(.post, "/otp", json: "{}").object?["msg"] as? String
        == "One of email or phone must be set")
    let resend = await server.send(.post, "/resend", json: #"{"type":"recovery","email":"a@b.co"}"#)
    #expect(
      resend.object?["msg"] as? String
        == "Missing one of these types: signup, email_change, sms, phone_change")
    #expect(await server.send(.post, "/magiclink", json: "{}").status == 422)
  }

  @Test func theAdminAPINeedsTheServiceRole() async throws {
    let server = try TestServer()
    #expect(await server.send(.get, "/admin/users").status == 401)
    let anon = await server.send(
      .get, "/admin/users",
      headers: [("Authorization", "Bearer " + server.engine.apiKey(role: "anon"))])
    #expect(anon.status == 403)
    #expect(anon.errorCode == "not_admin")
    let user = try #require(try await server.signIn()["access_token"] as? String)
    let asUser = await server.send(
      .get, "/admin/users", headers: [("Authorization", "Bearer \(user)")])
    #expect(asUser.errorCode == "not_admin")
  }

  @Test func adminUsersPageWithGoTruesHeaders() async throws {
    let server = try TestServer()
    for index in 1...3 {
      let created = await server.send(
        .post, "/admin/users", json: #"{"email":"user\#(index)@example.com","email_confirm":true}"#,
        headers: server.admin)
      #expect(created.status == 200)
    }
    let page = await server.send(
      .get, "/auth/v1/admin/users", query: [("page", "2"), ("per_page", "2")], headers: server.admin
    )
    #expect(page.header("X-Total-Count") == "5")
    #expect(
      page.header("Link")
        == #"</auth/v1/admin/users?page=3&per_page=2>; rel="next", </auth/v1/admin/users?page=3&per_page=2>; rel="last""#
    )
    let users = try #require(page.object?["users"] as? [[String: Any]])
    #expect(users.count == 2)
    #expect(users.allSatisfy { $0["identities"] is NSNull })
    #expect(page.object?["aud"] as? String == "authenticated")

    // supabase-py sends empty parameters for the defaults.
    let defaults = await server.send(
      .get, "/admin/users", query: [("page", ""), ("per_page", "")], headers: server.admin)
    #expect((defaults.object?["users"] as? [Any])?.count == 5)
    let bad = await server.send(.get, "/admin/users", query: [("page", "x")], headers: server.admin)
    #expect(bad.status == 400)
    #expect(
      bad.object?["msg"] as? String
        == #"Bad Pagination Parameters: strconv.ParseUint: parsing "x": invalid syntax"#)
    let huge = await server.send(
      .get, "/admin/users", query: [("page", "18446744073709551615"), ("per_page", "9999999999")],
      headers: server.admin)
    // Past Int64's range the page wraps negative in Go, and pop reads it as the first.
    #expect(huge.status == 200 && (huge.object?["users"] as? [Any])?.isEmpty == false)
    let far = await server.send(
      .get, "/admin/users", query: [("page", "4000000000")], headers: server.admin)
    #expect(far.status == 200 && (far.object?["users"] as? [Any])?.isEmpty == true)
    #expect(far.header("Link") == #"</admin/users?page=1>; rel="last""#)
    let quoted = await server.send(
      .get, "/admin/users", query: [("page", "\u{86}\"")], headers: server.admin)
    #expect(
      quoted.object?["msg"] as? String
        == #"Bad Pagination Parameters: strconv.ParseUint: parsing "\u0086\"": invalid syntax"#)
    let over = await server.send(
      .get, "/admin/users", query: [("page", "18446744073709551616")], headers: server.admin)
    #expect(
      over.object?["msg"] as? String
        == #"Bad Pagination Parameters: strconv.ParseUint: parsing "18446744073709551616": value out of range"#
    )
    // GoTrue divides by per_page for its headers: 0 is a panic its recoverer answers with 500.
    for path in ["/admin/users", "/admin/audit"] {
      let zero = await server.send(.get, path, query: [("per_page", "0")], headers: server.admin)
      #expect(zero.status == 500 && zero.object?["msg"] as? String == "Internal Server Error")
    }
    let sort = await server.send(
      .get, "/admin/users", query: [("sort", "email asc")], headers: server.admin)
    #expect(sort.object?["msg"] as? String == "Bad Sort Parameters: bad field for sort 'email'")
  }

  @Test func adminGetUpdateDelete() async throws {
    let server = try TestServer()
    let created = try #require(
      await server.send(
        .post, "/admin/users", json: #"{"email":"ada@example.com","user_metadata":{"a":1}}"#,
        headers: server.admin
      ).object)
    let id = try #require(created["id"] as? String)
    #expect(await server.send(.get, "/admin/users/\(id)", headers: server.admin).status == 200)
    let updated = await server.send(
      .put, "/admin/users/\(id)", json: #"{"user_metadata":{"a":null,"b":2}}"#,
      headers: server.admin)
    #expect(updated.object?["user_metadata"] as? [String: Int] == ["b": 2])
    let deleted = await server.send(
      .delete, "/admin/users/\(id)", json: #"{"should_soft_delete":false}"#, headers: server.admin)
    #expect(deleted.text == "{}")
    #expect(
      await server.send(.get, "/admin/users/\(id)", headers: server.admin).errorCode
        == "user_not_found")
    #expect(await server.send(.get, "/admin/users/nope", headers: server.admin).status == 404)
    #expect(await server.send(.delete, "/admin/users/\(id)", headers: server.admin).status == 404)
  }

  @Test func generateLinkGivesTheCodeAndLinkAnEmailWouldCarry() async throws {
    let server = try TestServer()
    let reply = await server.send(
      .post, "/admin/generate_link", json: #"{"type":"recovery","email":"test@example.com"}"#,
      headers: server.admin)
    let body = try #require(reply.object)
    #expect(body["email"] as? String == "test@example.com", "the user's fields at the top")
    let code = try #require(body["email_otp"] as? String)
    let hash = try #require(body["hashed_token"] as? String)
    #expect(hash == server.engine.linkToken(email: "test@example.com", code: code))
    #expect((body["action_link"] as? String)?.contains("token=\(hash)&type=recovery") == true)
    #expect(body["verification_type"] as? String == "recovery")
    #expect(server.engine.outbox.messages.isEmpty, "nothing is sent")
    let verified = await server.send(
      .post, "/verify", json: #"{"type":"recovery","token_hash":"\#(hash)"}"#)
    #expect(verified.status == 200)

    let signup = try #require(
      await server.send(
        .post, "/admin/generate_link", json: #"{"type":"magiclink","email":"new@example.com"}"#,
        headers: server.admin
      ).object)
    #expect(signup["verification_type"] as? String == "signup", "a new address signs up")
    let cases: [(String, Int, String)] = [
      (#"{"type":"nope","email":"a@b.co"}"#, 400, "Invalid email action link type requested: nope"),
      (#"{"type":"recovery","email":"nobody@example.com"}"#, 404, "User with this email not found"),
      (#"{"type":"signup","email":"fresh@example.com"}"#, 400, "Signup requires a valid password"),
      (
        #"{"type":"signup","email":"test@example.com","password":"secret12"}"#, 422,
        "A user with this email address has already been registered"
      ),
    ]
    for (json, status, message) in cases {
      let refused = await server.send(
        .post, "/admin/generate_link", json: json, headers: server.admin)
      #expect(refused.status == status, "\(json)")
      #expect(refused.object?["msg"] as? String == message, "\(json)")
    }
  }
}
