import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An email the engine would have sent.
public struct OutboxMessage: Equatable, Hashable, Sendable, Identifiable {
  /// What the email is for.
  public enum Kind: String, Equatable, Hashable, Sendable {
    /// Confirms a new account's address.
    case confirmation
    /// Resets a forgotten password.
    case recovery
  }

  /// A number counting up from 1 in this process.
  public var id: Int
  /// The address it went to.
  public var recipient: String
  /// What it is for.
  public var kind: Kind
  /// When it was sent, by the engine's clock.
  public var sentAt: Date
  /// The 6-digit code it carries.
  public var code: String
  /// The link it carries, for the app to open.
  public var link: String

  /// The subject line, as GoTrue's default templates word it.
  public var subject: String {
    switch kind {
    case .confirmation: "Confirm your signup"
    case .recovery: "Reset your password"
    }
  }
}

/// Where the engine's emails go instead of an SMTP server.
///
/// Messages live in this process's memory only. They carry codes in plaintext, as email does,
/// so they are never written to disk; a new process starts with an empty outbox (resend to get
/// a fresh code). Only the newest ``capacity`` messages are kept.
public final class Outbox: Sendable {
  /// How many messages are kept.
  public let capacity: Int
  private let state = Mutex<(nextID: Int, messages: [OutboxMessage])>((1, []))

  /// An empty outbox keeping the newest `capacity` messages.
  public init(capacity: Int = 100) {
    self.capacity = capacity
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

  func deliver(
    to recipient: String, kind: OutboxMessage.Kind, at date: Date, code: String, link: String
  ) {
    state.withLock { state in
      state.messages.append(
        OutboxMessage(
          id: state.nextID, recipient: recipient, kind: kind, sentAt: date, code: code, link: link))
      state.nextID += 1
      if state.messages.count > capacity { state.messages.removeFirst() }
    }
  }
}
