import Foundation
import GoTrue
import HTTPServer
import LocalPages
import Testing

@testable import AuthServer
@testable import GoTrueEngine

/// serve's page (`/_/`): its documents, its token, its event stream and its actions, in
/// process (the browser's side is Tests/Server/test_page.py).
struct PageTests {
  /// The token of a page the server just served, and the document's answer.
  private func page(_ server: TestServer, _ path: String = "/_/") async throws -> (
    token: String, reply: Reply
  ) {
    let reply = await server.send(.get, path, headers: [("Host", "127.0.0.1:9999")])
    #expect(reply.status == 200)
    let marker = #"<meta name="authflow-page" content=""#
    let start = try #require(reply.text.range(of: marker)).upperBound
    let end = try #require(reply.text[start...].firstIndex(of: "\""))
    return (String(reply.text[start..<end]), reply)
  }

  private func call(
    _ server: TestServer, _ method: HTTPMethod, _ path: String, token: String,
    json: String? = nil, query: [(String, String)] = []
  ) async -> Reply {
    await server.send(
      method, path, json: json, query: query,
      headers: [
        ("Host", "127.0.0.1:9999"), ("Origin", "http://127.0.0.1:9999"),
        ("Sec-Fetch-Site", "same-origin"), ("X-Authflow-Page", token),
      ])
  }

  @Test func eachViewIsOneDocumentWithAStrictPolicyAndAFreshToken() async throws {
    let server = try TestServer()
    for view in PageView.allCases {
      for base in ["/_/", "/auth/v1/_/"] {
        let path = base + view.relativePath
        let (token, reply) = try await page(server, path)
        #expect(reply.header("Content-Type") == "text/html; charset=utf-8")
        #expect(reply.header("Content-Security-Policy") == PageGuard.contentSecurityPolicy)
        #expect(reply.header("X-Content-Type-Options") == "nosniff")
        #expect(reply.header("Referrer-Policy") == "no-referrer")
        #expect(reply.header("Cache-Control") == "no-store")
        #expect(reply.text.contains(#"<meta name="authflow-base" content="\#(base)">"#))
        #expect(reply.text.contains(#"<script src="\#(base)app.js" defer></script>"#))
        #expect(reply.text.contains(#"<body data-view="\#(view.rawValue)">"#))
        #expect(!reply.text.contains("<script>"), "no inline script")
        #expect(server.responder.changes.version == 0, "reading changes nothing")
        let again = try await page(server, path).token
        #expect(token != again)
      }
    }
    let script = await server.send(.get, "/_/app.js")
    #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
    #expect(script.text.contains("new EventSource"))
    let style = await server.send(.get, "/auth/v1/_/app.css")
    #expect(style.header("Content-Type") == "text/css; charset=utf-8")
    #expect(style.text.contains("prefers-color-scheme: dark"))
  }

  @Test func theTokenIsTheHMACOfItsNonceUnderThisProcesssKey() {
    let key = PageKey()
    let token = key.issue()
    #expect(key.accepts(token))
    #expect(!PageKey().accepts(token), "another process's key")
    let parts = token.split(separator: ".")
    #expect(parts.count == 2)
    for forged in [
      "", ".", String(parts[0]), String(parts[0]) + ".", "x." + parts[1],
      parts[0] + "." + String(repeating: "A", count: parts[1].count),
      token + ".x", String(repeating: "a", count: 300),
    ] {
      #expect(!key.accepts(forged), "\(forged)")
    }
    #expect(!key.accepts(nil))
  }

  @Test func noOtherPageAndNoRequestWithoutTheTokenGetsAnything() async throws {
    let server = try TestServer()
    try await server.engine.recover(email: "test@example.com")
    let code = server.engine.outbox.messages[0].code
    let (token, _) = try await page(server)
    for headers in [
      [("Origin", "https://attacker.example")], [("Origin", "http://localhost:3000")],
      [("Origin", "http://127.0.0.1:9998")], [("Origin", "null")],
      [("Host", "attacker.example:9999")], [("Sec-Fetch-Site", "cross-site")],
      [("Sec-Fetch-Site", "same-site")], [],
    ] {
      let host = headers.contains { $0.0 == "Host" } ? [] : [("Host", "127.0.0.1:9999")]
      let reply = await server.send(
        .get, "/_/api/messages",
        headers: host + headers + (headers.isEmpty ? [] : [("X-Authflow-Page", token)]))
      #expect(reply.status == 403, "\(headers)")
      #expect(!reply.text.contains(code))
      #expect(reply.header("Access-Control-Allow-Origin") == nil)
    }
    let document = await server.send(
      .get, "/_/", headers: [("Host", "127.0.0.1:9999"), ("Origin", "http://localhost:3000")])
    #expect(document.status == 403)
    #expect(!document.text.contains("authflow-page"))
    // A navigation from another site gets the page (which that site cannot read).
    let navigation = await server.send(
      .get, "/_/users", headers: [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "navigate")])
    #expect(navigation.status == 200)
    let fetched = await server.send(
      .get, "/_/users", headers: [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "cors")])
    #expect(fetched.status == 403)
    let preflight = await server.send(
      .options, "/_/api/users",
      headers: [("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "POST")])
    #expect(preflight.header("Access-Control-Allow-Origin") == nil)
    let remote = await server.send(.get, "/_/", peer: "203.0.113.5:4000")
    #expect(remote.status == 403)
    let events = await server.send(.get, "/_/events", query: [("token", "forged.token")])
    #expect(events.status == 403)
    let list = await call(server, .get, "/_/api/messages", token: token)
    #expect(list.status == 200)
    #expect(list.text.contains(code))
  }

  @Test func theInboxListsNewestFirstAndDeletesOneOrAll() async throws {
    let server = try TestServer()
    let (token, _) = try await page(server)
    try await server.engine.recover(email: "test@example.com")
    try await server.engine.recover(email: "unverified@example.com")
    let list = await call(server, .get, "/_/api/messages", token: token)
    let messages = try #require(list.object?["messages"] as? [[String: Any]])
    #expect(messages.map { $0["to"] as? String } == ["unverified@example.com", "test@example.com"])
    #expect(messages[0]["kind"] as? String == "email")
    #expect(messages[0]["purpose"] as? String == "recovery")
    #expect(messages[0]["code"] as? String == server.engine.outbox.messages[1].code)
    let link = try #require((messages[0]["links"] as? [[String: Any]])?.first)
    #expect(link["app"] as? Bool == false)
    #expect(link["qr"] == nil)
    let first = try #require(messages[1]["id"] as? Int)
    let none = await call(server, .post, "/_/api/messages/delete", token: token, json: "{}")
    #expect(none.status == 400)
    let one = await call(
      server, .post, "/_/api/messages/delete", token: token, json: #"{"ids":[\#(first)]}"#)
    #expect(one.status == 200)
    #expect(server.engine.outbox.messages.map(\.recipient) == ["unverified@example.com"])
    let all = await call(
      server, .post, "/_/api/messages/delete", token: token, json: #"{"all":true}"#)
    #expect(all.status == 200)
    #expect(server.engine.outbox.messages.isEmpty)
  }

  @Test func aLinkIntoAnAppCarriesItsQRCode() throws {
    let link = PageLink("myapp://auth/verify?token=123456&type=signup")
    #expect(link.app)
    let rows = try #require(link.qr)
    #expect(rows.count >= 21 && rows.allSatisfy { $0.count == rows.count })
    #expect(rows[0].hasPrefix("1111111"), "a finder pattern in the corner")
    #expect(!PageLink("https://example.com/verify").app)
  }

  @Test func usersAreListedCreatedAndActedOnThroughTheEngine() async throws {
    let server = try TestServer()
    let (token, _) = try await page(server)
    let created = await call(
      server, .post, "/_/api/users", token: token,
      json: #"{"email":"new@example.com","password":"Password123","confirmed":false}"#)
    #expect(created.status == 200)
    let id = try #require(created.object?["id"] as? String)
    func user() async throws -> [String: Any] {
      let list = await call(
        server, .get, "/_/api/users", token: token, query: [("q", "new@"), ("page", "1")])
      #expect(list.status == 200)
      #expect(list.object?["total"] as? Int == 1)
      #expect(!list.text.contains("$2"), "no password hash")
      return try #require((list.object?["users"] as? [[String: Any]])?.first)
    }
    #expect(try await user()["confirmed"] as? Bool == false)
    #expect(try await user()["provider"] as? String == "email")
    for (action, field, value) in [
      ("confirm", "confirmed", true), ("disable", "disabled", true), ("enable", "disabled", false),
    ] {
      let reply = await call(
        server, .post, "/_/api/users/\(id)/\(action)", token: token, json: "{}")
      #expect(reply.status == 200, "\(action): \(reply.text)")
      #expect(try await user()[field] as? Bool == value, "\(action)")
    }
    let update = await call(
      server, .post, "/_/api/users/\(id)/update", token: token,
      json: #"{"userMetadata":{"name":"Ada"},"appMetadata":{"plan":"pro"}}"#)
    #expect(update.status == 200)
    #expect((try await user()["userMetadata"] as? [String: Any])?["name"] as? String == "Ada")
    #expect((try await user()["appMetadata"] as? [String: Any])?["plan"] as? String == "pro")
    let notObject = await call(
      server, .post, "/_/api/users/\(id)/update", token: token, json: #"{"userMetadata":[1]}"#)
    #expect(notObject.status == 400)
    let reset = await call(server, .post, "/_/api/users/\(id)/reset", token: token, json: "{}")
    #expect(reset.status == 200)
    #expect(server.engine.outbox.messages.last?.kind == .recovery)
    let session = try await server.engine.signIn(email: "new@example.com", password: "Password123")
    let signout = await call(server, .post, "/_/api/users/\(id)/signout", token: token, json: "{}")
    #expect(signout.status == 200)
    await #expect(throws: GoTrueFailure.self) {
      _ = try await server.engine.refresh(refreshToken: session.refreshToken)
    }
    let unknown = await call(server, .post, "/_/api/users/\(id)/promote", token: token, json: "{}")
    #expect(unknown.status == 404)
    let delete = await call(server, .post, "/_/api/users/\(id)/delete", token: token, json: "{}")
    #expect(delete.status == 200)
    let gone = await call(server, .post, "/_/api/users/\(id)/confirm", token: token, json: "{}")
    #expect(gone.status == 404)
    let taken = await call(
      server, .post, "/_/api/users", token: token, json: #"{"email":"test@example.com"}"#)
    #expect(taken.status == 422)
    let notJSON = await call(server, .post, "/_/api/users", token: token, json: "[]")
    #expect(notJSON.status == 400)
  }

  @Test func theEventStreamSaysWhatChangedSinceTheVersionsTheBrowserSaw() async throws {
    let server = try TestServer()
    let (token, _) = try await page(server)
    func events(_ lastID: String?) async -> Reply {
      await server.send(
        .get, "/_/events", query: [("token", token)],
        headers: [("Sec-Fetch-Site", "same-origin")]
          + (lastID.map { [("Last-Event-ID", $0)] } ?? []))
    }
    let first = await events(nil)
    #expect(first.header("Content-Type") == "text/event-stream; charset=utf-8")
    #expect(first.text == "retry: 100\nid: 0.0\nevent: ready\ndata: {}\n\n")
    #expect(await events("7.0").text.contains("event: ready"), "a server that restarted")
    #expect(await events("junk").text.contains("event: ready"))
    async let held = events("0.0")
    try await server.engine.recover(email: "test@example.com")
    let mail = await held
    #expect(mail.text == "retry: 100\nid: 1.0\nevent: mail\ndata: {}\n\n")
    async let waiting = events("1.0")
    // Any request that may write, even one refused.
    #expect(await server.send(.post, "/logout").status == 401)
    #expect(await waiting.text == "retry: 100\nid: 1.1\nevent: users\ndata: {}\n\n")
    async let drained = events("1.1")
    server.responder.draining()
    #expect(await drained.text.contains("id: 1.2\n"))
  }

  @Test func textMessagesShowInTheInboxAndWakeTheStream() async throws {
    let server = try TestServer { $0.phoneProvider = true }
    let (token, _) = try await page(server)
    async let held = server.send(
      .get, "/_/events", query: [("token", token)],
      headers: [("Sec-Fetch-Site", "same-origin"), ("Last-Event-ID", "0.0")])
    _ = try await server.engine.sendSignInCode(phone: "+15555550100", createUser: true, data: [:])
    #expect(await held.text.contains("event: mail"))
    let list = await call(server, .get, "/_/api/messages", token: token)
    let message = try #require((list.object?["messages"] as? [[String: Any]])?.first)
    let sent = try #require(server.engine.smsOutbox.messages.first)
    #expect(message["kind"] as? String == "sms" && message["purpose"] as? String == "sms")
    #expect(message["to"] as? String == "+15555550100" && message["code"] as? String == sent.code)
    #expect(message["text"] as? String == "Your code is \(sent.code)")
    let all = await call(
      server, .post, "/_/api/messages/delete", token: token, json: #"{"all":true}"#)
    #expect(all.status == 200 && server.engine.smsOutbox.messages.isEmpty)
  }

  @Test func theClockAndTheSettingsShowWhatTheServerRunsWith() async throws {
    let server = try TestServer()
    let (token, _) = try await page(server, "/_/clock")
    let moved = await call(server, .post, "/_/api/clock", token: token, json: #"{"advance":"2h"}"#)
    #expect(moved.status == 200)
    #expect(moved.object?["offset_seconds"] as? Double == 7_200)
    let read = await call(server, .get, "/_/api/clock", token: token)
    #expect(read.object?["movable"] as? Bool == true)
    let settings = await call(server, .get, "/_/api/settings", token: token)
    let lines = try #require(settings.object?["settings"] as? [[String: String]])
    let text = lines.map { "\($0["name"] ?? ""): \($0["value"] ?? "")" }.joined(separator: "\n")
    #expect(text.contains("Surfaces: GoTrue (Supabase Auth)"))
    #expect(text.contains("anon key: \(server.engine.apiKey(role: "anon").count) characters"))
    #expect(!settings.text.contains(server.engine.apiKey(role: "anon")))
    #expect(!settings.text.contains(server.engine.apiKey(role: "service_role")))
  }
}
