import GoTrue
import GoTrueEngine
import HTTPServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The outbox in Mailpit's message API (`/api/v1/…`), the mail catcher a local Supabase stack
/// runs, so tests and the shell read the server's emails the same way from either. Text
/// messages are listed among the emails, to their phone numbers (``OutboxItem``).
///
/// Emails carry codes, so the mailbox answers only this machine, and no web page of another
/// site (``LocalTrust``), whatever address the server listens on.
enum MailboxRoutes {
  static let all: [Route] = [
    .local("/api/v1/messages", "the outbox", [.get: list, .delete: delete]),
    .local("/api/v1/message/{id}", "the outbox", [.get: message]),
    .local("/api/v1/search", "the outbox", [.get: search]),
  ]

  /// `GET /api/v1/messages?start=&limit=`: newest first.
  @Sendable static func list(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    try local(context) { messages in summary(of: messages, context: context, matching: nil) }
  }

  /// `GET /api/v1/search?query=…`: `to:`, `from:`, `subject:`, `is:read`, `is:unread` and bare
  /// words (each a case-insensitive substring), `-` in front to negate.
  @Sendable static func search(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try local(context) { messages in
      guard let query = context.request.queryValue("query"),
        !query.allSatisfy({ $0 == " " })
      else { return Answer.text(400, "Error: no search query") }
      return summary(of: messages, context: context, matching: MailSearch(query))
    }
  }

  /// `GET /api/v1/message/{ID}` (or `latest`, optionally `?query=`): the whole message, which
  /// is marked read.
  @Sendable static func message(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try local(context) { messages in
      let wanted = context.parameter("id")
      let id: Int?
      if wanted == "latest" {
        let search = context.request.queryValue("query").map(MailSearch.init)
        id = messages.last { search?.matches($0) ?? true }?.id
        guard id != nil else { return Answer.text(404, "Message not found") }
      } else {
        id = Int(wanted)
      }
      guard let id, let opened = OutboxItem.open(id: id, in: context.engine) else {
        return Answer.notFound
      }
      return Answer.json(MailpitMessage(opened))
    }
  }

  /// `DELETE /api/v1/messages` with `{"IDs": […]}`, or every message without it.
  @Sendable static func delete(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try local(context) { _ in
      let body = try? JSONDecoder().decode(
        [String: JSONValue].self, from: Data(context.request.body))
      let ids = body?.first { $0.key.lowercased() == "ids" }.flatMap { member -> [JSONValue]? in
        if case .array(let list) = member.value { list } else { nil }
      }
      let numbers = Set((ids ?? []).compactMap { $0.stringValue.flatMap(Int.init) })
      OutboxItem.delete(ids: numbers.isEmpty ? nil : numbers, in: context.engine)
      return Answer.text(200, "ok")
    }
  }

  // MARK: Shapes

  private static func summary(
    of messages: [OutboxItem], context: RouteContext, matching search: MailSearch?
  ) -> HTTPResponse {
    let request = context.request
    let start = max(0, Int(request.queryValue("start") ?? "") ?? 0)
    let limit = max(0, Int(request.queryValue("limit") ?? "") ?? 50)
    let newestFirst = Array(messages.reversed())
    let matching = search.map { search in newestFirst.filter(search.matches) } ?? newestFirst
    let page = Array(matching.dropFirst(start).prefix(limit == 0 ? Int.max : limit))
    let unread = messages.count { !$0.read }
    return Answer.json(
      MailpitSummaryPage(
        total: messages.count, unread: unread, count: page.count,
        messagesCount: matching.count, messagesUnread: matching.count { !$0.read }, start: start,
        messages: page.map(MailpitSummary.init)))
  }

  /// Runs `body` with the outboxes' messages (the route let only this machine in).
  private static func local(
    _ context: RouteContext, _ body: ([OutboxItem]) throws(GoTrueFailure) -> HTTPResponse
  ) throws(GoTrueFailure) -> HTTPResponse {
    try body(OutboxItem.all(in: context.engine))
  }
}

/// A Mailpit search: terms that must all hold.
struct MailSearch {
  private var terms: [(field: String?, word: String, negated: Bool)] = []

  init(_ query: String) {
    for token in Self.tokens(query) {
      var token = Substring(token)
      let negated = token.first == "-" || token.first == "!"
      if negated { token = token.dropFirst() }
      var field: String?
      if let colon = token.firstIndex(of: ":"),
        ["to", "from", "subject", "is", "tag"].contains(token[..<colon].lowercased())
      {
        field = token[..<colon].lowercased()
        token = token[token.index(after: colon)...]
      }
      let word = token.lowercased().replacing("\"", with: "")
      terms.append((field, word, negated))
    }
  }

  /// Whether `message` meets every term.
  func matches(_ message: OutboxItem) -> Bool {
    terms.allSatisfy { term in
      let holds: Bool
      switch term.field {
      case "to": holds = message.recipient.lowercased().contains(term.word)
      case "from": holds = message.sender.address.lowercased().contains(term.word)
      case "subject": holds = message.subject.lowercased().contains(term.word)
      case "is": holds = term.word == "read" ? message.read : term.word == "unread" && !message.read
      case "tag": holds = message.tags.contains { $0.lowercased() == term.word }
      default:
        holds = (message.subject + " " + message.text + " " + message.recipient).lowercased()
          .contains(term.word)
      }
      return holds != term.negated
    }
  }

  /// The words of `query`, double quotes keeping spaces inside one.
  private static func tokens(_ query: String) -> [String] {
    var tokens: [String] = []
    var current = ""
    var quoted = false
    for character in query {
      if character == "\"" { quoted.toggle() }
      if character == " ", !quoted {
        if !current.isEmpty { tokens.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { tokens.append(current) }
    return tokens
  }
}

/// A mailbox address in Mailpit's shape.
struct MailpitAddress: Encodable {
  var name: String
  var address: String

  enum CodingKeys: String, CodingKey {
    case name = "Name"
    case address = "Address"
  }
}

/// `GET /api/v1/messages`'s body.
struct MailpitSummaryPage: Encodable {
  var total: Int
  var unread: Int
  var count: Int
  var messagesCount: Int
  var messagesUnread: Int
  var start: Int
  var tags: [String] = []
  var messages: [MailpitSummary]

  enum CodingKeys: String, CodingKey {
    case total, unread, count, start, tags, messages
    case messagesCount = "messages_count"
    case messagesUnread = "messages_unread"
  }
}

/// One message in a list, in Mailpit's shape (its Go field names).
struct MailpitSummary: Encodable {
  var id: String
  var messageID: String
  var read: Bool
  var from: MailpitAddress
  var to: [MailpitAddress]
  var cc: [MailpitAddress]? = nil
  var bcc: [MailpitAddress]? = nil
  var replyTo: [MailpitAddress] = []
  var subject: String
  var created: String
  var username = ""
  var tags: [String] = []
  var size: Int
  var attachments = 0
  var snippet: String

  init(_ message: OutboxItem) {
    id = "\(message.id)"
    messageID = "\(message.id)@authflow"
    read = message.read
    from = MailpitAddress(name: message.sender.name, address: message.sender.address)
    to = [MailpitAddress(name: "", address: message.recipient)]
    subject = message.subject
    created = GoTrueCoding.timestamp(message.sentAt)
    // A copy of what the send-email hook was asked to send, not mail sent from here; or a
    // text message.
    tags = message.tags
    size = message.text.utf8.count + message.html.utf8.count
    let words = message.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(
      separator: " ")
    snippet = words.count > 200 ? String(words.prefix(200)) + "..." : words
  }

  enum CodingKeys: String, CodingKey {
    case id = "ID"
    case messageID = "MessageID"
    case read = "Read"
    case from = "From"
    case to = "To"
    case cc = "Cc"
    case bcc = "Bcc"
    case replyTo = "ReplyTo"
    case subject = "Subject"
    case created = "Created"
    case username = "Username"
    case tags = "Tags"
    case size = "Size"
    case attachments = "Attachments"
    case snippet = "Snippet"
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(messageID, forKey: .messageID)
    try c.encode(read, forKey: .read)
    try c.encode(from, forKey: .from)
    try c.encode(to, forKey: .to)
    try c.encode(cc, forKey: .cc)
    try c.encode(bcc, forKey: .bcc)
    try c.encode(replyTo, forKey: .replyTo)
    try c.encode(subject, forKey: .subject)
    try c.encode(created, forKey: .created)
    try c.encode(username, forKey: .username)
    try c.encode(tags, forKey: .tags)
    try c.encode(size, forKey: .size)
    try c.encode(attachments, forKey: .attachments)
    try c.encode(snippet, forKey: .snippet)
  }
}

/// One whole message, in Mailpit's shape.
struct MailpitMessage: Encodable {
  var summary: MailpitSummary
  var text: String
  var html: String

  init(_ message: OutboxItem) {
    summary = MailpitSummary(message)
    text = message.text
    html = message.html
  }

  enum CodingKeys: String, CodingKey {
    case id = "ID"
    case messageID = "MessageID"
    case from = "From"
    case to = "To"
    case cc = "Cc"
    case bcc = "Bcc"
    case replyTo = "ReplyTo"
    case returnPath = "ReturnPath"
    case subject = "Subject"
    case listUnsubscribe = "ListUnsubscribe"
    case date = "Date"
    case tags = "Tags"
    case username = "Username"
    case text = "Text"
    case html = "HTML"
    case size = "Size"
    case inline = "Inline"
    case attachments = "Attachments"
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(summary.id, forKey: .id)
    try c.encode(summary.messageID, forKey: .messageID)
    try c.encode(summary.from, forKey: .from)
    try c.encode(summary.to, forKey: .to)
    try c.encode([MailpitAddress](), forKey: .cc)
    try c.encode([MailpitAddress](), forKey: .bcc)
    try c.encode([MailpitAddress](), forKey: .replyTo)
    try c.encode(summary.from.address, forKey: .returnPath)
    try c.encode(summary.subject, forKey: .subject)
    try c.encode(
      [
        "Header": JSONValue.string(""), "Links": .array([]), "Errors": .string(""),
        "HeaderPost": .string(""),
      ], forKey: .listUnsubscribe)
    try c.encode(summary.created, forKey: .date)
    try c.encode(summary.tags, forKey: .tags)
    try c.encode(summary.username, forKey: .username)
    try c.encode(text, forKey: .text)
    try c.encode(html, forKey: .html)
    try c.encode(summary.size, forKey: .size)
    try c.encode([String](), forKey: .inline)
    try c.encode([String](), forKey: .attachments)
  }
}
