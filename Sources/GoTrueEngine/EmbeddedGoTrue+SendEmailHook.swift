import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's send-email hook (`api/mail.go`, `sendEmail`): with it on, GoTrue sends no mail
/// itself; each email's codes and links go to the hook, which sends it.
extension EmbeddedGoTrue {
  /// Sends `emails`, decided in a transaction that has committed: to the send-email hook when
  /// it is on, keeping a copy of each in the outbox marked as handed to the hook (so the
  /// mailbox still shows what was sent); otherwise into the outbox. When the hook fails,
  /// GoTrue's error is the answer and that email is not kept.
  package func send(_ emails: [PendingEmail], at date: Date) async throws(GoTrueFailure) {
    guard let hooks, hooks.isEnabled(.sendEmail) else { return deliver(emails, at: date) }
    for call in hookCalls(emails) {
      do {
        _ = try await hooks.dispatch(.sendEmail, payload: call.payload)
      } catch {
        throw .api(error)
      }
      handedToHook(call.emails, at: date)
    }
  }

  /// Sends the emails of an answer that must not tell who has an account (`/recover`,
  /// `/resend`): into the outbox at once, or with the send-email hook on, to the hook in the
  /// background, so that neither the hook's time nor its failure reaches the answer. GoTrue
  /// answers the hook's failure there, and only for addresses with an account; here it is
  /// reported to the dispatcher (``AuthHookDispatcher/report(_:of:)``, a log line in
  /// `authflow serve`) and the email is not kept. Call inside the paced part of the answer.
  func sendUnanswered(_ emails: [PendingEmail], at date: Date) {
    guard let hooks, hooks.isEnabled(.sendEmail) else { return deliver(emails, at: date) }
    // The payloads are made now, so a seeded run draws their ids in the answer's order.
    let calls = hookCalls(emails)
    guard !calls.isEmpty else { return }
    let outbox = outbox
    let sender = configuration.sender
    unansweredSends.start {
      for call in calls {
        do throws(GoTrueAPIError) {
          _ = try await hooks.dispatch(.sendEmail, payload: call.payload)
        } catch {
          hooks.report(error, of: .sendEmail)
          continue
        }
        for email in call.emails {
          outbox.deliver(email, from: sender, at: date, handedToHook: true)
        }
      }
    }
  }

  /// Waits until every email handed to the hook in the background has been sent or refused.
  package func waitForUnansweredSends() async {
    await unansweredSends.wait()
  }

  private func handedToHook(_ emails: [PendingEmail], at date: Date) {
    for email in emails {
      outbox.deliver(email, from: configuration.sender, at: date, handedToHook: true)
    }
  }

  /// The calls of the hook that send `emails`, with their payloads.
  private func hookCalls(_ emails: [PendingEmail]) -> [(
    emails: [PendingEmail], payload: [String: JSONValue]
  )] {
    Self.hookCalls(emails).map { call in
      var fields: [String: JSONValue] = ["email_data": .object(emailData(call))]
      if let user = call.first.user { fields["user"] = Self.json(user) }
      return (call.emails, hookPayload(.sendEmail, fields))
    }
  }

  /// One call of the hook: an email, or both of an email change (GoTrue makes one call with
  /// the codes of both addresses).
  struct HookCall {
    var emails: [PendingEmail]
    var first: PendingEmail { emails[0] }
    /// The email to the new address of an email change, and the one to the current address.
    var change: (new: PendingEmail, current: PendingEmail?)? {
      guard first.kind == .emailChange else { return nil }
      let new = emails.first { $0.recipient == $0.change?.to } ?? first
      return (new, emails.first { $0.recipient != new.recipient })
    }
  }

  static func hookCalls(_ emails: [PendingEmail]) -> [HookCall] {
    let changes = emails.filter { $0.kind == .emailChange }
    return emails.filter { $0.kind != .emailChange }.map { HookCall(emails: [$0]) }
      + (changes.isEmpty ? [] : [HookCall(emails: changes)])
  }

  /// GoTrue's `mailer.EmailData` for `call`. For an email change, `token` is the current
  /// address's code when both addresses get one (else the new address's), and the hashes are
  /// crossed as GoTrue crosses them (its own `BUG(cstockton)` note keeps them so).
  private func emailData(_ call: HookCall) -> [String: JSONValue] {
    let siteURL =
      switch configuration.emailLinks {
      case .server(let externalURL): externalURL
      case .app: configuration.siteURL
      }
    var (token, tokenHash, tokenNew, tokenHashNew) = (
      call.first.code, call.first.tokenHash, "", ""
    )
    if let change = call.change {
      if let current = change.current {
        (token, tokenHash) = (current.code, change.new.tokenHash)
        (tokenNew, tokenHashNew) = (change.new.code, current.tokenHash)
      } else {
        (token, tokenHash) = (change.new.code, change.new.tokenHash)
      }
    }
    return [
      "token": .string(token), "token_hash": .string(tokenHash),
      "redirect_to": .string(call.first.redirectTo),
      "email_action_type": .string(call.first.kind.verificationType),
      "site_url": .string(siteURL), "token_new": .string(tokenNew),
      "token_hash_new": .string(tokenHashNew), "old_email": .string(""),
      "old_phone": .string(""), "provider": .string(""), "factor_type": .string(""),
    ]
  }

  /// `user` as GoTrue writes a user.
  private static func json(_ user: GoTrueUser) -> JSONValue {
    guard let bytes = try? GoTrueCoding.serverEncoder().encode(user),
      let value = try? JSONDecoder().decode(JSONValue.self, from: bytes)
    else { return .null }
    return value
  }
}
