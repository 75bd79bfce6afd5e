/// The application side of the server: turns requests into replies.
///
/// A responder is shared by the loop thread (``immediateResponse(to:)``) and by Tasks
/// (``respond(to:)``), hence `Sendable`.
public protocol HTTPResponder: Sendable {
  /// Answers on the event loop itself, for requests that cost nothing (`GET /health`); nil hands
  /// the request to ``respond(to:)``.
  ///
  /// This runs on the one thread that serves every connection, so it must not block or do real
  /// work: while it runs, no other request is read or answered.
  func immediateResponse(to request: HTTPRequest) -> HTTPResponse?

  /// Answers off the event loop (bcrypt, SQLite): called in a Swift Task on the global
  /// concurrent executor.
  ///
  /// If the client goes away or the server stops meanwhile, the Task is cancelled and its reply
  /// dropped; cancellation is a hint, so a responder may still finish its work.
  @concurrent func respond(to request: HTTPRequest) async -> HTTPResponse
}
