/// The application side of the server: turns requests into replies.
///
/// A responder routes each request once, on the loop thread, and either answers it there or
/// hands back the work that answers it, which runs in a Task; hence `Sendable`.
public protocol HTTPResponder: Sendable {
  /// Routes `request`: ``HTTPRoute/answer(_:)`` for what costs nothing (`GET /health`, an
  /// unknown path), ``HTTPRoute/work(_:)`` for what needs real work (bcrypt, SQLite), with
  /// whatever the routing found (the handler, the path's parameters) already in it.
  ///
  /// This runs on the one thread that serves every connection, so it must not block or do real
  /// work: while it runs, no other request is read or answered.
  func route(_ request: HTTPRequest) -> HTTPRoute

  /// The answer to a request the server refuses itself (``ServerRefusal``), in the responder's
  /// own error shape; `path` when the request's is known. Runs on the loop thread.
  func refusal(_ refusal: ServerRefusal, path: String?) -> HTTPResponse

  /// The server stopped accepting and drains: work that waits for something to happen (a held
  /// event stream) should answer now, so the drain ends without waiting out its grace time.
  /// Runs on the loop thread; must not block.
  func draining()
}

extension HTTPResponder {
  /// Nothing waits: nothing to tell.
  public func draining() {}
}

/// Where a request goes.
public enum HTTPRoute: Sendable {
  /// The reply, made on the event loop.
  case answer(HTTPResponse)
  /// The work that makes the reply, run in a Swift Task on the global concurrent executor. If
  /// the client goes away or the server stops meanwhile, the Task is cancelled and its reply
  /// dropped; cancellation is a hint, so the work may still finish.
  case work(@Sendable () async -> HTTPResponse)
}
