import HTTPServer
import LocalPages

/// The page's server-sent events (`GET /_/events`, `text/event-stream`): `mail` when an outbox
/// changed (emails or SMS), `users` when a request may have changed the store (a user, a
/// session, the clock).
///
/// Each answer is one short stream: the server's replies are whole values, so a stream holds
/// until something changes (or ``hold`` passes) and then ends, and the browser's
/// `EventSource` reconnects after `retry` milliseconds with the `Last-Event-ID` it was given
/// (the versions it has seen, `mail.users`), so nothing between two answers is missed. Nothing
/// reads the store in a loop: a held stream waits on ``ChangeSignal``s.
enum PageEvents {
  /// How long an answer waits for a change before it ends with nothing new.
  static let hold = Duration.seconds(15)
  /// How soon the browser asks again, in milliseconds.
  static let retry = 100

  /// The answer to one connection of the event stream.
  static func answer(_ context: RouteContext, _ page: ServePage) async -> HTTPResponse {
    let (emails, texts) = (page.engine.outbox.changes, page.engine.smsOutbox.changes)
    let users = page.changes
    // The mail version counts the changes of both outboxes.
    let (emailsNow, textsNow) = (emails.version, texts.version)
    let now = (mail: emailsNow + textsNow, users: users.version)
    guard let seen = seen(context.request.header("Last-Event-ID")),
      seen.mail <= now.mail, seen.users <= now.users
    else {
      // A new page, or one from before the server restarted: start from here.
      return stream(now, events: ["ready"])
    }
    if seen.mail == now.mail {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { _ = await emails.change(after: emailsNow, within: hold) }
        group.addTask { _ = await texts.change(after: textsNow, within: hold) }
        group.addTask { _ = await users.change(after: seen.users, within: hold) }
        await group.next()
        group.cancelAll()
      }
    }
    let then = (mail: emails.version + texts.version, users: users.version)
    var events: [String] = []
    if then.mail != seen.mail { events.append("mail") }
    if then.users != seen.users { events.append("users") }
    return stream(then, events: events.isEmpty ? ["idle"] : events)
  }

  /// The versions of a `Last-Event-ID` (`3.17`).
  static func seen(_ id: String?) -> (mail: Int, users: Int)? {
    guard let parts = id?.split(separator: "."), parts.count == 2, let mail = Int(parts[0]),
      let users = Int(parts[1]), mail >= 0, users >= 0
    else { return nil }
    return (mail, users)
  }

  /// An event stream of `events` (names, with empty data), the last id `versions`.
  static func stream(_ versions: (mail: Int, users: Int), events: [String]) -> HTTPResponse {
    PageEventStream.answer(
      id: "\(versions.mail).\(versions.users)", retry: retry,
      events: events.map { (name: $0, data: "{}") })
  }
}
