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

extension HTTPResponse {
  /// GoTrue's error shape, `{"code":…,"error_code":"…","msg":"…"}`, for the replies the server
  /// makes itself. The texts are fixed ASCII without quotes, so no escaping is needed.
  static func serverError(status: Int, code: String, message: String) -> HTTPResponse {
    let json = #"{"code":\#(status),"error_code":"\#(code)","msg":"\#(message)"}"#
    return HTTPResponse(
      status: status, headers: [("Content-Type", "application/json")], body: Array(json.utf8))
  }

  /// What a client gets when the responder's reply could not be sent as built.
  static let unexpectedFailure = serverError(
    status: 500, code: "unexpected_failure",
    message: "Unexpected failure, please check server logs for more information")

  /// What a connection beyond the connection limit gets before it is closed.
  static let overConnectionLimit = serverError(
    status: 503, code: "over_connection_limit",
    message: "Too many connections, please try again later")
}
