/// One accepted connection, from its adoption until evhttp's close callback (loop thread only).
final class Connection {
  /// Where the connection is in its request cycle; it decides what the deadline timer does.
  enum Phase {
    /// Waiting for (the rest of) a request: the deadline is armed.
    case idle
    /// A responder holds the request: the deadline is off, since evhttp reads nothing now.
    case busy
    /// The reply is being written: the deadline is armed again, for a client that never reads.
    case writing
  }

  /// The `evhttp_connection`.
  let evcon: OpaquePointer
  /// Whether this connection is over the cap and only gets a 503.
  let refused: Bool
  /// The client's address, formatted once at adoption.
  let peer: String
  /// The timer that closes the connection when a request or reply takes too long; made right
  /// after adoption, freed in the close callback.
  var deadline: OpaquePointer?
  /// Where the connection is in its request cycle.
  var phase = Phase.idle
  /// The request waiting for a Task's reply, if any.
  var job: UInt64?
  /// The framing check in front of evhttp's parser; only a request on a connection that has one
  /// can carry a refusal. Detached in the close callback.
  var framing: RequestFraming?

  init(evcon: OpaquePointer, refused: Bool, peer: String) {
    self.evcon = evcon
    self.refused = refused
    self.peer = peer
  }
}
