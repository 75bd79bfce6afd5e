import GoTrue
import HTTPClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An email read from a mail catcher with Mailpit's message API: the one a local Supabase stack
/// runs (`supabase start`), or `authflow serve`'s outbox, which lists its text messages too
/// (tagged `sms`, to a phone number).
public struct MailboxMessage: Equatable, Hashable, Sendable {
  /// The mail catcher's ID for it.
  public var id: String
  /// The address it went to.
  public var recipient: String
  /// The subject line.
  public var subject: String
  /// When it arrived.
  public var sentAt: Date
  /// The 6-digit code in its text, when it has one (GoTrue's newer templates send only a link).
  public var code: String?
  /// The first link in its text.
  public var link: String?
  /// Its Mailpit tags: `authflow serve` tags a text message `sms`, with its kind
  /// (`phone_change`, `reauthentication`, `verification_code`) unless it is a plain `sms` code.
  public var tags: [String] = []

  /// Whether it is a text message (`authflow serve`'s outbox tags those `sms`).
  public var isSMS: Bool { tags.contains("sms") }

  /// What the link verifies: its `type` parameter (`signup`, `recovery`, …); for a code with no
  /// link, `reauthentication` (GoTrue's only email of that kind: the nonce a password change
  /// asks for); for a text message, its kind (`sms`, `phone_change`, …).
  public var type: String? {
    if isSMS { return tags.first { $0 != "sms" } ?? "sms" }
    guard let link else { return code == nil ? nil : "reauthentication" }
    guard let components = URLComponents(string: link) else { return nil }
    return components.queryItems?.first { $0.name == "type" }?.value
  }
}

/// Why the mailbox could not be read.
public struct MailboxFailure: Error, Equatable, Sendable {
  /// One line for the user.
  public var description: String
}

/// Mailpit's message API (`/api/v1/messages`, `/api/v1/message/{ID}`) over an injected
/// transport: what the shell's `mail` commands read on the Supabase backend.
public struct MailpitMailbox: Sendable {
  /// The mail catcher's base URL, e.g. `http://127.0.0.1:54324`.
  public let url: String
  private let transport: any HTTPTransport
  private let timeout: Double

  /// How many of the newest messages are read.
  public static let window = 50

  /// A mailbox at `url` (http or https, no query), read through `transport`.
  public init(url rawURL: String, transport: any HTTPTransport, timeout: Double = 10)
    throws(MailboxFailure)
  {
    var text = rawURL
    while text.hasSuffix("/") { text.removeLast() }
    guard let components = URLComponents(string: text),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      components.host?.isEmpty == false, components.query == nil
    else {
      throw MailboxFailure(
        description: "--mailbox takes the mail catcher's URL, such as http://127.0.0.1:54324")
    }
    url = text
    self.transport = transport
    self.timeout = timeout
  }

  /// The newest messages, oldest first, each read whole (for its code and link).
  public func messages() async throws(MailboxFailure) -> [MailboxMessage] {
    let page = try await get(
      "/api/v1/messages?limit=\(Self.window)", as: Page.self)
    var messages: [MailboxMessage] = []
    for summary in page.messages.reversed() { messages.append(try await message(summary.id)) }
    return messages
  }

  /// The newest message to `recipient` whose link verifies `type` (any when `nil`).
  public func newest(to recipient: String, type: String? = nil) async throws(MailboxFailure)
    -> MailboxMessage?
  {
    let query = FormEncoding.escape("to:\"\(recipient)\"")
    let page = try await get(
      "/api/v1/search?query=\(query)&limit=\(Self.window)", as: Page.self)
    for summary in page.messages {
      let message = try await message(summary.id)
      guard message.recipient.lowercased() == recipient.lowercased() else { continue }
      if type == nil || message.type == type { return message }
    }
    return nil
  }

  /// The message with `id`, read whole.
  public func message(_ id: String) async throws(MailboxFailure) -> MailboxMessage {
    let full = try await get("/api/v1/message/\(FormEncoding.escape(id))", as: Message.self)
    let tags = full.tags ?? []
    return MailboxMessage(
      id: full.id, recipient: full.to.first?.address ?? "", subject: full.subject,
      sentAt: GoTrueCoding.parseTimestamp(full.date) ?? Date(timeIntervalSince1970: 0),
      code: tags.contains("sms") ? Self.smsCode(in: full.text) : Self.code(in: full.text),
      link: tags.contains("sms") ? nil : Self.link(in: full.text), tags: tags)
  }

  /// The code of a text message: its last word of 6 to 10 digits (GoTrue's `SMS_OTP_LENGTH`).
  static func smsCode(in text: String) -> String? {
    let words = text.split(whereSeparator: { !($0.isASCII && $0.isNumber) })
    return words.last { (6...10).contains($0.count) }.map(String.init)
  }

  /// The code of GoTrue's templates: six digits after "code", or a line of six digits alone.
  static func code(in text: String) -> String? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ":" })
    for (index, word) in words.enumerated() where Self.isCode(word) {
      let before = index > 0 ? words[index - 1].lowercased() : ""
      if before == "code" || before == "token" || words.count == 1 { return String(word) }
    }
    return words.first(where: isCode).map(String.init)
  }

  private static func isCode(_ word: Substring) -> Bool {
    word.count == 6 && word.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// The first `http://`, `https://` or app (`scheme://`) link in `text`.
  static func link(in text: String) -> String? {
    for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\"" }) {
      if word.contains("://"), let components = URLComponents(string: String(word)),
        components.scheme != nil
      {
        return String(word)
      }
    }
    return nil
  }

  private func get<Answer: Decodable>(_ path: String, as: Answer.Type)
    async throws(MailboxFailure) -> Answer
  {
    let request = HTTPRequest(
      method: "GET", url: url + path, headers: [HTTPRequest.Header("Accept", "application/json")],
      body: nil)
    let response: HTTPResponse
    do {
      response = try await transport.send(request, timeout: timeout)
    } catch {
      throw MailboxFailure(
        description: "the mailbox at \(url) could not be read: \(error.description)")
    }
    guard response.status == 200 else {
      throw MailboxFailure(
        description: "the mailbox at \(url) answered \(response.status); is it a Mailpit API?")
    }
    do {
      return try JSONDecoder().decode(Answer.self, from: response.body)
    } catch {
      throw MailboxFailure(
        description: "the mailbox at \(url) answered with something that is not Mailpit's JSON")
    }
  }

  private struct Page: Decodable {
    var messages: [Summary]
  }

  private struct Summary: Decodable {
    var id: String

    enum CodingKeys: String, CodingKey {
      case id = "ID"
    }
  }

  private struct Message: Decodable {
    var id: String
    var to: [Address]
    var subject: String
    var date: String
    var text: String
    var tags: [String]?

    enum CodingKeys: String, CodingKey {
      case id = "ID"
      case to = "To"
      case subject = "Subject"
      case date = "Date"
      case text = "Text"
      case tags = "Tags"
    }
  }

  private struct Address: Decodable {
    var address: String

    enum CodingKeys: String, CodingKey {
      case address = "Address"
    }
  }
}
