import Foundation
import HTTPClient
import TestSupport
import Testing

@testable import SupabaseREST

/// Reading emails from a mail catcher with Mailpit's API.
struct MailboxTests {
  private func json(_ text: String) -> ReplayTransport.Reply {
    .response(
      HTTPResponse(
        status: 200, headers: ["content-type": "application/json"], body: Data(text.utf8)))
  }

  private static let message = #"""
    {"ID":"7","To":[{"Name":"","Address":"Ada@Example.com"}],"Subject":"Reset your password",
     "Date":"2025-01-01T00:00:00Z",
     "Text":"Reset your password\n\nFollow this link:\nhttp://127.0.0.1:9999/verify?token=abc&type=recovery&redirect_to=http://127.0.0.1:3000\n\nAlternatively, enter the code: 123456\n"}
    """#

  @Test func readsTheNewestMessageToAnAddressWithItsCodeAndLink() async throws {
    let transport = ReplayTransport(json(#"{"messages":[{"ID":"7"}]}"#), json(Self.message))
    let mailbox = try MailpitMailbox(url: "http://127.0.0.1:54324/", transport: transport)
    let message = try #require(try await mailbox.newest(to: "ada@example.com", type: "recovery"))
    #expect(message.id == "7")
    #expect(message.code == "123456")
    #expect(message.link?.hasPrefix("http://127.0.0.1:9999/verify?token=abc") == true)
    #expect(message.type == "recovery")
    #expect(message.sentAt == Date(timeIntervalSince1970: 1_735_689_600))
    #expect(
      transport.requests.map(\.url) == [
        "http://127.0.0.1:54324/api/v1/search?query=to%3A%22ada%40example.com%22&limit=50",
        "http://127.0.0.1:54324/api/v1/message/7",
      ])
  }

  @Test func aTextMessageOfServesOutboxIsReadWithItsKindAndCode() async throws {
    let sms = #"""
      {"ID":"9","To":[{"Name":"","Address":"+15555550100"}],"Subject":"SMS code for a new number",
       "Date":"2025-01-01T00:00:00Z","Tags":["sms","phone_change"],
       "Text":"Your code is 12345678"}
      """#
    let transport = ReplayTransport(json(#"{"messages":[{"ID":"9"}]}"#), json(sms))
    let mailbox = try MailpitMailbox(url: "http://127.0.0.1:54321", transport: transport)
    let message = try #require(try await mailbox.messages().first)
    #expect(message.isSMS && message.recipient == "+15555550100")
    #expect(message.code == "12345678" && message.link == nil)
    #expect(message.type == "phone_change")
    let plain = MailboxMessage(
      id: "1", recipient: "+15555550100", subject: "SMS code", sentAt: Date(), code: "123456",
      link: nil, tags: ["sms"])
    #expect(plain.type == "sms")
  }

  @Test func aCodeWithoutALinkIsAReauthenticationNonce() {
    let sent = Date(timeIntervalSince1970: 0)
    let nonce = MailboxMessage(
      id: "1", recipient: "a@b.co", subject: "Confirm reauthentication", sentAt: sent,
      code: "123456", link: nil)
    #expect(nonce.type == "reauthentication")
    let empty = MailboxMessage(
      id: "2", recipient: "a@b.co", subject: "Hello", sentAt: sent, code: nil, link: nil)
    #expect(empty.type == nil)
  }

  @Test func aTemplateWithoutACodeGivesNone() {
    #expect(MailpitMailbox.code(in: "Follow this link: https://x.io/verify?token=abc") == nil)
    #expect(MailpitMailbox.code(in: "Your code is 987654") == "987654")
    #expect(MailpitMailbox.code(in: "Order 1234567 shipped") == nil)
    #expect(
      MailpitMailbox.link(in: "Open myapp://auth/verify?token=1 now")
        == "myapp://auth/verify?token=1")
  }

  @Test func failuresSayWhereAndWhat() async throws {
    #expect(throws: MailboxFailure.self) {
      try MailpitMailbox(url: "ftp://x", transport: ReplayTransport())
    }
    let down = try MailpitMailbox(
      url: "http://127.0.0.1:1", transport: ReplayTransport(.failure(.unreachable("refused"))))
    do {
      _ = try await down.messages()
      Issue.record("expected a failure")
    } catch {
      #expect(
        error.description
          == "the mailbox at http://127.0.0.1:1 could not be read: the server could not be reached: refused"
      )
    }
    let html = try MailpitMailbox(
      url: "http://127.0.0.1:1", transport: ReplayTransport(.response(HTTPResponse(status: 404))))
    await #expect(throws: MailboxFailure.self) { try await html.messages() }
  }
}
