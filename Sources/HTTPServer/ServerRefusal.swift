/// A request the server answers itself, before or instead of its responder: one its framing
/// check refuses, one beyond the connection limit, or one whose reply could not be sent as
/// built. The responder words the answer (``HTTPResponder/refusal(_:path:)``), so each surface
/// refuses in its own shape.
public struct ServerRefusal: Equatable, Sendable {
  /// What was wrong; its raw value is its name in an error body (`request_too_large`).
  public enum Kind: String, Equatable, Sendable {
    /// 400: a malformed request.
    case malformed = "bad_request"
    /// 413: a body over the limit.
    case tooLarge = "request_too_large"
    /// 414: a request target over the limit.
    case targetTooLong = "request_target_too_long"
    /// 431: header fields over the limit.
    case headerTooLarge = "request_header_fields_too_large"
    /// 405: a method the server has no table entry for (CONNECT, or one it does not know).
    case methodNotAllowed = "method_not_allowed"
    /// 501: a transfer coding the server does not decode.
    case notImplemented = "not_implemented"
    /// 505: an HTTP version other than 1.0 and 1.1.
    case versionNotSupported = "http_version_not_supported"
    /// 503: a connection beyond the limit.
    case overConnectionLimit = "over_connection_limit"
    /// 500: the responder's reply could not be sent as built.
    case unexpectedFailure = "unexpected_failure"
  }

  /// What was wrong.
  public let kind: Kind
  /// The status to answer with.
  public let status: Int
  /// What was wrong in one line: fixed ASCII text and numbers, never bytes from the client.
  public let reason: String

  /// A refusal of `kind`, with `status` and `reason`.
  public init(_ kind: Kind, status: Int, reason: String) {
    self.kind = kind
    self.status = status
    self.reason = reason
  }

  /// A connection beyond the limit.
  public static let overConnectionLimit = ServerRefusal(
    .overConnectionLimit, status: 503, reason: "Too many connections, please try again later")

  /// A reply that could not be sent as built.
  public static let unexpectedFailure = ServerRefusal(
    .unexpectedFailure, status: 500,
    reason: "Unexpected failure, please check server logs for more information")
}

extension HTTPResponder {
  /// By default, the reason as plain text.
  public func refusal(_ refusal: ServerRefusal, path: String?) -> HTTPResponse {
    HTTPResponse(
      status: refusal.status, headers: [("Content-Type", "text/plain; charset=utf-8")],
      body: Array((refusal.reason + "\n").utf8))
  }
}
