import AuthFlowFirebase
import GoTrueEngine
import SupabaseREST

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An email (or a text message) as the `mail` commands show it, from whichever mailbox the
/// backend has.
struct MailItem: Equatable, Sendable {
  /// The mailbox's ID for it, shown as `#ID`.
  var id: String
  /// The address it went to (a text message's: the phone number, `+` and digits).
  var recipient: String
  /// The subject line.
  var subject: String
  /// When it was sent; `nil` when the mailbox does not say (the Firebase emulator's codes
  /// carry no time).
  var sentAt: Date?
  /// Its 6-digit code, when it has one.
  var code: String?
  /// Its link.
  var link: String?
  /// What its code and link verify: `signup`, `recovery`, `magiclink`, `email_change`; a text
  /// message's `sms`, `phone_change`, `reauthentication`.
  var type: String?
}

/// Where the shell reads a backend's emails: the embedded engine's outbox, or a mail catcher
/// with Mailpit's API (`--mailbox`) for the Supabase backend.
protocol ShellMailbox: Sendable {
  /// The kept emails, oldest first.
  func items() async throws(ShellError) -> [MailItem]
  /// The newest email to `recipient` that verifies `type` (any when `nil`).
  func newest(to recipient: String, type: String?) async throws(ShellError) -> MailItem?
}

/// The embedded engine's outboxes: its emails, and its text messages among them in the order
/// sent (one count numbers both).
struct OutboxMailbox: ShellMailbox {
  let outbox: Outbox
  let sms: SMSOutbox

  func items() -> [MailItem] {
    let emails = outbox.messages.map { (id: $0.id, item: Self.item($0)) }
    let texts = sms.messages.map { (id: $0.id, item: Self.item($0)) }
    return (emails + texts).sorted { $0.id < $1.id }.map(\.item)
  }

  func newest(to recipient: String, type: String?) -> MailItem? {
    let kind = OutboxMessage.Kind.allCases.first { $0.verificationType == type }
    if type == nil || kind != nil, let email = outbox.newest(to: recipient, kind: kind) {
      return Self.item(email)
    }
    // A phone number's text messages (an email address never matches one).
    let textKind = SMSMessage.Kind.allCases.first { $0.verificationType == type }
    guard type == nil || textKind != nil, recipient.first == "+" else { return nil }
    return sms.newest(to: recipient, kind: textKind).map(Self.item)
  }

  private static func item(_ message: SMSMessage) -> MailItem {
    MailItem(
      id: "\(message.id)", recipient: message.recipient, subject: message.kind.subject,
      sentAt: message.sentAt, code: message.code, link: nil,
      type: message.kind.verificationType)
  }

  private static func item(_ message: OutboxMessage) -> MailItem {
    MailItem(
      id: "\(message.id)", recipient: message.recipient, subject: message.subject,
      sentAt: message.sentAt, code: message.code, link: message.link,
      type: message.kind.verificationType)
  }
}

/// A mailbox read over HTTP: a mail catcher with Mailpit's API (`authflow serve`'s outbox, or
/// a local Supabase stack's Mailpit), or the Firebase Auth emulator's list of codes and links
/// (the emulator sends no email; its links stand in for them).
struct RemoteMailbox: ShellMailbox {
  private let list: @Sendable () async throws(ShellError) -> [MailItem]
  private let find: @Sendable (String, String?) async throws(ShellError) -> MailItem?

  /// Mailpit's message API.
  init(_ mailbox: MailpitMailbox) {
    list = { () async throws(ShellError) in
      try await Self.reading { try await mailbox.messages().map(Self.item) }
    }
    find = { recipient, type async throws(ShellError) in
      try await Self.reading { try await mailbox.newest(to: recipient, type: type).map(Self.item) }
    }
  }

  /// The Firebase Auth emulator's codes. It keeps no time: an email shows as sent when read.
  init(_ mailbox: FirebaseEmulatorMailbox) {
    list = { () async throws(ShellError) in
      try await Self.reading { try await mailbox.messages().map(Self.item) }
    }
    find = { recipient, type async throws(ShellError) in
      try await Self.reading { try await mailbox.newest(to: recipient, type: type).map(Self.item) }
    }
  }

  /// `body`'s answer; a failure to read is the shell's one-line mailbox error.
  private static func reading<T>(_ body: () async throws -> T) async throws(ShellError) -> T {
    do {
      return try await body()
    } catch {
      throw .mailboxFailed(String(describing: error))
    }
  }

  func items() async throws(ShellError) -> [MailItem] { try await list() }

  func newest(to recipient: String, type: String?) async throws(ShellError) -> MailItem? {
    try await find(recipient, type)
  }

  private static func item(_ message: MailboxMessage) -> MailItem {
    MailItem(
      id: message.id, recipient: message.recipient.lowercased(), subject: message.subject,
      sentAt: message.sentAt, code: message.code, link: message.link, type: message.type)
  }

  private static func item(_ message: EmulatorMailboxMessage) -> MailItem {
    MailItem(
      id: message.id, recipient: message.recipient.lowercased(), subject: message.subject,
      sentAt: nil, code: message.code, link: message.link, type: message.type)
  }
}
