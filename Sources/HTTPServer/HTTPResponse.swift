/// A reply as plain values: what a responder returns, copied into evhttp on the loop thread.
///
/// The server adds `Date` and `Content-Length` (a responder's own `Content-Length` is ignored,
/// because a wrong one would break the framing of the next reply), and `Content-Type:
/// application/json` when the reply has a body and no type. A header name must be a token and a
/// value must not hold CR, LF or NUL: otherwise the whole reply becomes a 500 JSON error, never a
/// reply that silently lacks the header.
public struct HTTPResponse: Sendable {
  /// The status code, 200 through 599; anything else is answered as a 500.
  public var status: Int
  /// Header fields to send, in order.
  public var headers: [(name: String, value: String)]
  /// The body; dropped by the server for HEAD requests, 204 and 304.
  public var body: [UInt8]

  /// A reply with a status, optional header fields and an optional body.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}
