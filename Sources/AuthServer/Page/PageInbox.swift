import GoTrue
import GoTrueEngine
import HTTPServer
import QRCode

/// The inbox's data: every message of the outboxes (emails and SMS), newest first, with its
/// code and links (a link into an app with the QR code a phone scans), and the deletion of some
/// or all.
enum PageInbox {
  /// `GET /_/api/messages`.
  static func list(_ page: ServePage) -> HTTPResponse {
    let messages = OutboxItem.all(in: page.engine).reversed().map(PageMessage.init)
    return Answer.json(PageMessages(messages: messages))
  }

  /// `POST /_/api/messages/delete` with `{"ids":[…]}`, or `{"all":true}` for every message.
  static func delete(_ context: RouteContext, _ page: ServePage) -> HTTPResponse {
    let body = JSONValue(parsing: context.request.body)?.objectValue ?? [:]
    if body["all"] == .bool(true) {
      OutboxItem.delete(ids: nil, in: page.engine)
    } else {
      let ids: [JSONValue] =
        if case .array(let list)? = body["ids"] { list } else { [] }
      let numbers = Set(
        ids.compactMap { value -> Int? in
          if case .number(let number) = value { Int(exactly: number) } else { nil }
        })
      guard !numbers.isEmpty else {
        return Answer.error(.invalid(#"give {"ids":[…]} or {"all":true}"#), for: context.request)
      }
      OutboxItem.delete(ids: numbers, in: page.engine)
    }
    return Answer.empty
  }
}

/// The inbox's answer.
struct PageMessages: Encodable {
  var messages: [PageMessage]
}

/// One message as the inbox shows it. `kind` says whether it is an email or an SMS.
struct PageMessage: Encodable {
  var id: Int
  /// `email` or `sms`.
  var kind = "email"
  /// What it is for (`confirmation`, `recovery`, …; for an SMS, `sms`, `phone_change`, …).
  var purpose: String
  var to: String
  var from: String
  var subject: String
  var sentAt: String
  var code: String
  var links: [PageLink]
  var text: String
  /// A copy of what the send-email hook was asked to send.
  var handedToHook: Bool

  init(_ item: OutboxItem) {
    switch item {
    case .email(let message): self.init(message)
    case .sms(let message): self.init(message)
    }
  }

  init(_ message: SMSMessage) {
    id = message.id
    kind = "sms"
    purpose = message.kind.rawValue
    to = message.recipient
    from = ""
    subject = message.kind.subject
    sentAt = GoTrueCoding.timestamp(message.sentAt)
    code = message.code
    links = []
    text = message.body
    handedToHook = false
  }

  init(_ message: OutboxMessage) {
    id = message.id
    purpose = message.kind.rawValue
    to = message.recipient
    from = message.sender.address
    subject = message.subject
    sentAt = GoTrueCoding.timestamp(message.sentAt)
    code = message.code
    links = message.link.isEmpty ? [] : [PageLink(message.link)]
    text = message.text
    handedToHook = message.handedToHook
  }
}

/// A link of a message: one a browser opens, or one into an app (a scheme other than http and
/// https), shown with its QR code, row by row (`1` dark).
struct PageLink: Encodable {
  var url: String
  var app: Bool
  var qr: [String]?

  init(_ url: String) {
    self.url = url
    let scheme = url.prefix { $0 != ":" }.lowercased()
    app = scheme != "http" && scheme != "https"
    guard app, let code = QRCode(bytes: Array(url.utf8), correction: .medium) else { return }
    qr = (0..<code.size).map { y in
      String((0..<code.size).map { x in code.isDark(x: x, y: y) ? "1" : "0" })
    }
  }
}
