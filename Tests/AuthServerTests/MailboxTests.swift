import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import Testing

@testable import AuthServer

/// The outbox in Mailpit's API, and the command line of `authflow serve`.
struct MailboxTests {
  private func serverWithMail() async throws -> TestServer {
    let server = try TestServer()
    _ = await server.send(.post, "/recover", json: #"{"email":"test@example.com"}"#)
    _ = await server.send(
      .post, "/resend", json: #"{"type":"signup","email":"unverified@example.com"}"#)
    return server
  }

  @Test func listsNewestFirstInMailpitsShape() async throws {
    let server = try await serverWithMail()
    let page = try #require(await server.send(.get, "/api/v1/messages").object)
    #expect(page["total"] as? Int == 2)
    #expect(page["unread"] as? Int == 2)
    #expect(page["messages_count"] as? Int == 2)
    let messages = try #require(page["messages"] as? [[String: Any]])
    #expect(messages.map { $0["ID"] as? String } == ["2", "1"])
    let first = messages[0]
    #expect((first["To"] as? [[String: String]])?.first?["Address"] == "unverified@example.com")
    #expect(first["Subject"] as? String == "Confirm your signup")
    #expect(first["Cc"] is NSNull)
    #expect(
      (first["Snippet"] as? String)?.hasPrefix("Confirm your signup Follow this link") == true)

    let limited = try #require(
      await server.send(.get, "/api/v1/messages", query: [("start", "1"), ("limit", "1")]).object)
    #expect((limited["messages"] as? [[String: Any]])?.first?["ID"] as? String == "1")
    #expect(limited["count"] as? Int == 1)
  }

  @Test func opensAMessageAndMarksItRead() async throws {
    let server = try await serverWithMail()
    let message = try #require(await server.send(.get, "/api/v1/message/1").object)
    #expect(message["Subject"] as? String == "Reset your password")
    let text = try #require(message["Text"] as? String)
    let code = try #require(server.engine.outbox.message(id: 1)?.code)
    #expect(text.contains("Alternatively, enter the code: \(code)"))
    #expect((message["HTML"] as? String)?.contains("<a href=") == true)
    let page = try #require(await server.send(.get, "/api/v1/messages").object)
    #expect(page["unread"] as? Int == 1)
    #expect(await server.send(.get, "/api/v1/message/99").status == 404)
  }

  @Test func latestAndSearchFilterByRecipient() async throws {
    let server = try await serverWithMail()
    let latest = try #require(
      await server.send(.get, "/api/v1/message/latest", query: [("query", "to:test@example.com")])
        .object)
    #expect(latest["ID"] as? String == "1")
    let none = await server.send(.get, "/api/v1/message/latest", query: [("query", "to:nobody")])
    #expect(none.status == 404)
    #expect(none.text == "Message not found")
    let found = try #require(
      await server.send(.get, "/api/v1/search", query: [("query", #"subject:"reset your""#)]).object
    )
    #expect(found["messages_count"] as? Int == 1)
    let negated = try #require(
      await server.send(.get, "/api/v1/search", query: [("query", "-to:test@example.com")]).object)
    #expect((negated["messages"] as? [[String: Any]])?.first?["ID"] as? String == "2")
    #expect(await server.send(.get, "/api/v1/search").status == 400)
  }

  @Test func deletesSomeOrAll() async throws {
    let server = try await serverWithMail()
    #expect(await server.send(.delete, "/api/v1/messages", json: #"{"IDs":["1"]}"#).text == "ok")
    #expect(server.engine.outbox.messages.map(\.id) == [2])
    #expect(await server.send(.delete, "/api/v1/messages").text == "ok")
    #expect(server.engine.outbox.messages.isEmpty)
  }

  @Test func textMessagesAreListedAmongTheEmailsToTheirNumbers() async throws {
    let server = try await serverWithMail()
    let sent = server.engine.smsOutbox.send(
      to: "+15555550100", code: "123456", kind: .phoneChange, at: server.clock.now)
    #expect(sent.id == 3, "one count numbers emails and text messages")
    let page = try #require(await server.send(.get, "/api/v1/messages").object)
    #expect(page["total"] as? Int == 3)
    let messages = try #require(page["messages"] as? [[String: Any]])
    #expect(messages.map { $0["ID"] as? String } == ["3", "2", "1"])
    #expect((messages[0]["To"] as? [[String: String]])?.first?["Address"] == "+15555550100")
    #expect(messages[0]["Tags"] as? [String] == ["sms", "phone_change"])
    #expect(messages[0]["Subject"] as? String == "SMS code for a new number")
    let opened = try #require(await server.send(.get, "/api/v1/message/3").object)
    #expect(opened["Text"] as? String == "Your code is 123456")
    #expect(server.engine.smsOutbox.message(id: 3)?.read == true)
    let search = try #require(
      await server.send(.get, "/api/v1/search", query: [("query", "tag:sms to:+1555")]).object)
    #expect((search["messages"] as? [[String: Any]])?.map { $0["ID"] as? String } == ["3"])
    #expect(await server.send(.delete, "/api/v1/messages", json: #"{"IDs":["3"]}"#).text == "ok")
    #expect(server.engine.smsOutbox.messages.isEmpty && server.engine.outbox.messages.count == 2)
  }

  @Test func onlyThisMachineMayReadTheMail() async throws {
    let server = try await serverWithMail()
    let remote = await server.send(.get, "/api/v1/messages", peer: "192.168.1.20:40000")
    #expect(remote.status == 403)
    #expect(await server.send(.get, "/api/v1/messages", peer: "[::1]:40000").status == 200)
  }

  @Test func optionsTakeGoTruesVariables() throws {
    let options = try ServeOptions.parse(
      ["--port", "0", "--host", "127.0.0.1", "--no-rate-limits"],
      environment: [
        "GOTRUE_JWT_SECRET": String(repeating: "s", count: 32), "GOTRUE_JWT_EXP": "600",
        "GOTRUE_MAILER_AUTOCONFIRM": "true", "GOTRUE_DISABLE_SIGNUP": "false",
        "GOTRUE_SITE_URL": "http://localhost:5173", "GOTRUE_PASSWORD_MIN_LENGTH": "4",
        "GOTRUE_SMTP_MAX_FREQUENCY": "1s",
      ])
    #expect(options.http.port == 0)
    #expect(options.http.hosts == ["127.0.0.1"])
    #expect(options.settings.engine.jwtSecret?.count == 32)
    #expect(options.settings.engine.accessTokenLifetime == 600)
    #expect(options.settings.engine.autoconfirm)
    #expect(!options.settings.engine.disableSignup)
    #expect(options.settings.engine.siteURL == "http://localhost:5173")
    #expect(
      options.settings.engine.minimumPasswordLength == 6, "GoTrue raises a minimum below 6 to 6")
    #expect(options.settings.engine.rateLimits == .unlimited)
    #expect(options.requestLimits.isOff)
    let limited = try ServeOptions.parse(
      [], environment: ["GOTRUE_RATE_LIMIT_TOKEN_REFRESH": "5", "GOTRUE_SMTP_MAX_FREQUENCY": "2m"])
    #expect(limited.requestLimits.tokenRefresh == 5)
    #expect(
      limited.settings.engine.rateLimits.token == .unlimited, "the server limits per client instead"
    )
    #expect(limited.settings.engine.emailInterval == 120)
    #expect(limited.http.hosts == ["127.0.0.1", "::1"])
  }

  @Test func badOptionsSayWhatWouldBeRight() {
    let cases: [([String], [String: String], String)] = [
      (
        ["--host", "localhost"], [:],
        "--host takes a numeric address such as 127.0.0.1, ::1 or 0.0.0.0"
      ),
      (["--port", "99999"], [:], "--port takes a port from 0 to 65535"),
      (
        [], ["GOTRUE_JWT_SECRET": "short"],
        "GOTRUE_JWT_SECRET takes a secret of at least 32 characters"
      ),
      (
        [], ["GOTRUE_SITE_URL": "nope"], "GOTRUE_SITE_URL takes a URL such as http://127.0.0.1:3000"
      ),
      (["extra"], [:], "unknown option 'extra'; see authflow serve --help"),
    ]
    for (arguments, environment, text) in cases {
      expectRefusal(arguments, environment, says: text)
    }
  }
}
