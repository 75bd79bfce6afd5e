import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A text message the server would have sent: a GoTrue phone code, or the Firebase Auth
/// emulator's verification code.
public struct SMSMessage: Equatable, Hashable, Sendable, Identifiable {
  /// What the message is for.
  public enum Kind: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Confirms a phone's sign-up, or signs a confirmed phone in (GoTrue's `sms` type).
    case otp = "sms"
    /// Confirms a new number for a signed-in user (GoTrue's `phone_change` type).
    case phoneChange = "phone_change"
    /// Carries the nonce a password change may ask for (`GET /reauthenticate`, to a user with
    /// a phone and no email).
    case reauthentication
    /// The Firebase Auth emulator's code (`accounts:sendVerificationCode`).
    case verificationCode = "verification_code"

    /// The `type` its code is verified with on GoTrue's `POST /verify` (the kind's name for
    /// the ones no `/verify` takes).
    public var verificationType: String { rawValue }

    /// A title for it where an email has its subject (the mailbox API, the page, the shell's
    /// `mail`), without the code.
    public var subject: String {
      switch self {
      case .otp: "SMS code"
      case .phoneChange: "SMS code for a new number"
      case .reauthentication: "SMS reauthentication code"
      case .verificationCode: "SMS verification code"
      }
    }
  }

  /// A number counting up from 1 in this process, shared with the email outbox's
  /// (``MessageNumbers``), so one number names one message of either.
  public var id: Int
  /// The number it went to: `+` and E.164's digits.
  public var recipient: String
  /// What it is for.
  public var kind: Kind
  /// When it was sent, by the sender's clock.
  public var sentAt: Date
  /// The code it carries.
  public var code: String
  /// The whole text.
  public var body: String
  /// Whether it was opened through the mailbox API.
  public var read = false
}

/// Where the server's text messages go instead of an SMS provider.
///
/// Messages live in this process's memory only, as the email ``Outbox``'s do: they carry codes
/// in plaintext, so they are never written anywhere nor sent. Only the newest ``capacity`` are
/// kept.
public final class SMSOutbox: Sendable {
  /// GoTrue's default words (`SMS_TEMPLATE`, `Your code is {{ .Code }}`).
  public static let defaultTemplate = "Your code is {{ .Code }}"

  /// How many messages are kept.
  public let capacity: Int
  /// Touched whenever a message arrives or is removed, for whoever watches the outbox.
  public let changes = ChangeSignal()
  private let numbers: MessageNumbers
  private let state = Mutex<[SMSMessage]>([])

  /// An empty outbox keeping the newest `capacity` messages, numbering them from `numbers`.
  public init(capacity: Int = 100, numbers: MessageNumbers = MessageNumbers()) {
    self.capacity = capacity
    self.numbers = numbers
  }

  /// Every kept message, oldest first.
  public var messages: [SMSMessage] { state.withLock { $0 } }

  /// Puts a message carrying `code` to `phone` in the outbox, and answers it. `phone` is
  /// E.164 with or without its `+` (spaces are dropped); `body` is the whole text, GoTrue's
  /// default words around the code unless given.
  @discardableResult
  public func send(
    to phone: String, code: String, kind: SMSMessage.Kind, body: String? = nil,
    at date: Date = Date()
  ) -> SMSMessage {
    let text = body ?? Self.text(Self.defaultTemplate, code: code)
    let message = state.withLock { messages in
      let message = SMSMessage(
        id: numbers.next(), recipient: Self.recipient(phone), kind: kind, sentAt: date,
        code: code, body: text)
      messages.append(message)
      if messages.count > capacity { messages.removeFirst() }
      return message
    }
    changes.touch()
    return message
  }

  /// The newest message to `phone` (any kind unless `kind` is given).
  public func newest(to phone: String, kind: SMSMessage.Kind? = nil) -> SMSMessage? {
    let recipient = Self.recipient(phone)
    return state.withLock { messages in
      messages.last { $0.recipient == recipient && (kind == nil || $0.kind == kind) }
    }
  }

  /// The message numbered `id`, if it is still kept.
  public func message(id: Int) -> SMSMessage? {
    state.withLock { messages in messages.first { $0.id == id } }
  }

  /// The message numbered `id`, marked read, if it is still kept.
  public func open(id: Int) -> SMSMessage? {
    state.withLock { messages in
      guard let index = messages.firstIndex(where: { $0.id == id }) else { return nil }
      messages[index].read = true
      return messages[index]
    }
  }

  /// Removes the messages numbered in `ids`, or every message when `ids` is `nil`.
  public func delete(ids: Set<Int>? = nil) {
    state.withLock { messages in
      if let ids {
        messages.removeAll { ids.contains($0.id) }
      } else {
        messages.removeAll()
      }
    }
    changes.touch()
  }

  /// `phone` as messages name it: `+` and its digits, without spaces.
  public static func recipient(_ phone: String) -> String {
    var digits = Substring(phone)
    if digits.hasPrefix("+") { digits = digits.dropFirst() }
    return "+" + digits.filter { $0 != " " }
  }

  /// `template` with its code filled in: GoTrue's `{{ .Code }}` (with or without the spaces).
  public static func text(_ template: String, code: String) -> String {
    template.replacing("{{ .Code }}", with: code).replacing("{{.Code}}", with: code)
  }
}

/// The numbers the outboxes give their messages: one count for emails and text messages alike,
/// so the mailbox API names each message of either by one number.
public final class MessageNumbers: Sendable {
  private let last = Atomic<Int>(0)

  /// A count starting at 1.
  public init() {}

  /// The next number.
  func next() -> Int {
    last.add(1, ordering: .relaxed).newValue
  }
}
