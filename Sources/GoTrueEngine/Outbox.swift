import GoTrue
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An email the engine would have sent.
public struct OutboxMessage: Equatable, Hashable, Sendable, Identifiable {
  /// What the email is for.
  public enum Kind: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Confirms a new account's address.
    case confirmation
    /// Resets a forgotten password.
    case recovery
    /// Signs in without a password.
    case magicLink = "magiclink"
    /// Confirms a change of address (sent to the old address and to the new one).
    case emailChange = "email_change"
    /// Invites someone to an account an admin made for them.
    case invite
    /// Carries the nonce a password change may ask for (`GET /reauthenticate`); no link.
    case reauthentication

    /// The `type` its link and code are verified with.
    public var verificationType: String {
      switch self {
      case .confirmation: "signup"
      case .recovery: "recovery"
      case .magicLink: "magiclink"
      case .emailChange: "email_change"
      case .invite: "invite"
      case .reauthentication: "reauthentication"
      }
    }
  }

  /// A number counting up from 1 in this process.
  public var id: Int
  /// Who it came from.
  public var sender: EmailAddress
  /// The address it went to.
  public var recipient: String
  /// What it is for.
  public var kind: Kind
  /// When it was sent, by the engine's clock.
  public var sentAt: Date
  /// The 6-digit code it carries.
  public var code: String
  /// The link it carries.
  public var link: String
  /// The subject line.
  public var subject: String
  /// The plain-text body.
  public var text: String
  /// The HTML body.
  public var html: String
  /// Whether it was opened through the mailbox API.
  public var read = false
  /// Whether the send-email hook was asked to send it (this is the outbox's copy).
  public var handedToHook = false
}

/// Where the engine's emails go instead of an SMTP server.
///
/// Messages live in this process's memory only. They carry codes in plaintext, as email does,
/// so they are never written to disk; a new process starts with an empty outbox (resend to get
/// a fresh code). Only the newest ``capacity`` messages are kept.
public final class Outbox: Sendable {
  /// How many messages are kept.
  public let capacity: Int
  /// Touched whenever a message arrives or is removed, for whoever watches the outbox.
  public let changes = ChangeSignal()
  private let numbers: MessageNumbers
  private let state = Mutex(State())

  private struct State {
    var messages: [OutboxMessage] = []
  }

  /// An empty outbox keeping the newest `capacity` messages, numbering them from `numbers`
  /// (which the text messages' outbox may share, ``SMSOutbox``).
  public init(capacity: Int = 100, numbers: MessageNumbers = MessageNumbers()) {
    self.capacity = capacity
    self.numbers = numbers
  }

  /// Every kept message, oldest first.
  public var messages: [OutboxMessage] { state.withLock { $0.messages } }

  /// The newest message to `recipient` (any kind unless `kind` is given).
  public func newest(to recipient: String, kind: OutboxMessage.Kind? = nil) -> OutboxMessage? {
    let recipient = EmailRules.normalized(recipient)
    return state.withLock { state in
      state.messages.last { $0.recipient == recipient && (kind == nil || $0.kind == kind) }
    }
  }

  /// The message numbered `id`, if it is still kept.
  public func message(id: Int) -> OutboxMessage? {
    state.withLock { state in state.messages.first { $0.id == id } }
  }

  /// The message numbered `id`, marked read, if it is still kept.
  public func open(id: Int) -> OutboxMessage? {
    state.withLock { state in
      guard let index = state.messages.firstIndex(where: { $0.id == id }) else { return nil }
      state.messages[index].read = true
      return state.messages[index]
    }
  }

  /// Removes the messages numbered in `ids`, or every message when `ids` is `nil`.
  public func delete(ids: Set<Int>? = nil) {
    state.withLock { state in
      if let ids {
        state.messages.removeAll { ids.contains($0.id) }
      } else {
        state.messages.removeAll()
      }
    }
    changes.touch()
  }

  package func deliver(
    _ email: PendingEmail, from sender: EmailAddress, at date: Date, handedToHook: Bool = false
  ) {
    let content = EmailTemplate(email)
    state.withLock { state in
      state.messages.append(
        OutboxMessage(
          id: numbers.next(), sender: sender, recipient: email.recipient, kind: email.kind,
          sentAt: date, code: email.code, link: email.link, subject: content.subject,
          text: content.text, html: content.html, handedToHook: handedToHook))
      if state.messages.count > capacity { state.messages.removeFirst() }
    }
    changes.touch()
  }
}

/// An email decided inside a transaction, delivered to the outbox only once it commits.
package struct PendingEmail: Sendable {
  var recipient: String
  var kind: OutboxMessage.Kind
  var code: String
  var link: String
  /// For an email change: the address being left and the one being taken.
  var change: (from: String, to: String)?
  /// Words its sender composed (the Firebase surface's own templates), instead of GoTrue's.
  var content: EmailContent? = nil
  /// The user it is for, as the send-email hook gets them.
  var user: GoTrueUser? = nil
  /// Its link's token (GoTrue's `token_hash`, with `pkce_` in a PKCE flow).
  var tokenHash = ""
  /// Where its link leads once verified.
  var redirectTo = ""
}

extension PendingEmail {
  /// An email to `recipient` whose words its sender composed.
  package init(
    recipient: String, kind: OutboxMessage.Kind, code: String, link: String,
    content: EmailContent
  ) {
    self.init(
      recipient: recipient, kind: kind, code: code, link: link, change: nil, content: content)
  }
}

/// The words of an email: its subject, plain text and HTML.
package struct EmailContent: Sendable {
  package var subject: String
  package var text: String
  package var html: String

  /// The words given.
  package init(subject: String, text: String, html: String) {
    self.subject = subject
    self.text = text
    self.html = html
  }
}

/// The words of each email, after GoTrue's default templates (the ones that still carried the
/// code as well as the link).
package struct EmailTemplate {
  var subject: String
  var text: String
  var html: String

  init(_ email: PendingEmail) {
    if let content = email.content {
      (subject, text, html) = (content.subject, content.text, content.html)
      return
    }
    let (subject, lead, action) =
      switch email.kind {
      case .confirmation:
        ("Confirm your signup", "Follow this link to confirm your user:", "Confirm your mail")
      case .recovery:
        (
          "Reset your password", "Follow this link to reset the password for your user:",
          "Reset password"
        )
      case .magicLink: ("Your sign-in link", "Follow this link to sign in:", "Sign in")
      case .invite:
        (
          "You've been invited",
          "You've been invited to create an account. Follow this link to accept:",
          "Accept invitation"
        )
      case .reauthentication:
        (
          "\(email.code) is your verification code",
          "Use the code below to verify your identity. It expires shortly.", ""
        )
      case .emailChange:
        (
          "Confirm email change",
          "Follow this link to confirm the update of your email from \(email.change?.from ?? "") to \(email.change?.to ?? email.recipient):",
          "Change email"
        )
      }
    self.subject = subject
    guard !email.link.isEmpty else {
      // A code to type, with no link (reauthentication).
      text = """
        \(subject)

        \(lead)
        \(email.code)

        """
      html = """
        <h2>Your verification code</h2>

        <p>\(Self.escaped(lead))</p>
        <p>\(email.code)</p>

        """
      return
    }
    text = """
      \(subject)

      \(lead)
      \(email.link)

      Alternatively, enter the code: \(email.code)

      """
    html = """
      <h2>\(Self.escaped(subject))</h2>

      <p>\(Self.escaped(lead))</p>
      <p><a href="\(Self.escaped(email.link))">\(Self.escaped(action))</a></p>
      <p>Alternatively, enter the code: \(email.code)</p>

      """
  }

  /// `text` with HTML's special characters escaped, for element content and quoted attributes.
  package static func escaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
