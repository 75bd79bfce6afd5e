import GoTrueEngine

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A message of either outbox, the emails' or the text messages', as the mailbox API and the
/// page list them: numbered from one count (``MessageNumbers``), so an id names one message.
///
/// A text message reads as an email whose recipient is the phone number (`+` and digits), with
/// no sender address, the title of its kind as the subject (``SMSMessage/Kind/subject``, no
/// code), its words as the text, and the tags `sms` and its kind (`phone_change`,
/// `reauthentication`, `verification_code`; none more for a plain `sms` code).
enum OutboxItem {
  case email(OutboxMessage)
  case sms(SMSMessage)

  /// Every kept message of `engine`'s outboxes, oldest first.
  static func all(in engine: EmbeddedGoTrue) -> [OutboxItem] {
    let emails = engine.outbox.messages.map(OutboxItem.email)
    let texts = engine.smsOutbox.messages.map(OutboxItem.sms)
    return (emails + texts).sorted { $0.id < $1.id }
  }

  /// The message numbered `id`, marked read, if either outbox still keeps it.
  static func open(id: Int, in engine: EmbeddedGoTrue) -> OutboxItem? {
    if let email = engine.outbox.open(id: id) { return .email(email) }
    return engine.smsOutbox.open(id: id).map(OutboxItem.sms)
  }

  /// Removes the messages numbered in `ids` from both outboxes, or every message when `ids`
  /// is `nil`.
  static func delete(ids: Set<Int>?, in engine: EmbeddedGoTrue) {
    engine.outbox.delete(ids: ids)
    engine.smsOutbox.delete(ids: ids)
  }

  var id: Int {
    switch self {
    case .email(let message): message.id
    case .sms(let message): message.id
    }
  }

  var read: Bool {
    switch self {
    case .email(let message): message.read
    case .sms(let message): message.read
    }
  }

  /// The address, or the phone number.
  var recipient: String {
    switch self {
    case .email(let message): message.recipient
    case .sms(let message): message.recipient
    }
  }

  var sender: (name: String, address: String) {
    switch self {
    case .email(let message): (message.sender.name, message.sender.address)
    case .sms: ("SMS", "")
    }
  }

  var subject: String {
    switch self {
    case .email(let message): message.subject
    case .sms(let message): message.kind.subject
    }
  }

  var text: String {
    switch self {
    case .email(let message): message.text
    case .sms(let message): message.body
    }
  }

  var html: String {
    switch self {
    case .email(let message): message.html
    case .sms: ""
    }
  }

  var sentAt: Date {
    switch self {
    case .email(let message): message.sentAt
    case .sms(let message): message.sentAt
    }
  }

  /// Mailpit's tags: `send-email-hook` for the outbox's copy of an email handed to the hook;
  /// `sms` and the kind for a text message.
  var tags: [String] {
    switch self {
    case .email(let message): message.handedToHook ? ["send-email-hook"] : []
    case .sms(let message): message.kind == .otp ? ["sms"] : ["sms", message.kind.rawValue]
    }
  }
}
