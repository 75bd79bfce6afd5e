import CEvent

/// A request the framing check will not let evhttp parse: the status it gets and why, in one
/// line (fixed ASCII text and numbers only, never bytes from the client).
///
/// The check forwards, in place of the refused request, a synthetic head that carries the
/// refusal in ``markerField``. A client head that names that field is itself refused, so a
/// request that reaches the loop with it was made by the check.
struct Refusal: Error, Equatable {
  /// 400, 405, 413, 414, 431, 501 or 505.
  var status: Int
  /// What was wrong, such as `two different Content-Length values`.
  var reason: String

  /// A 400 for a malformed request.
  static func badRequest(_ reason: String) -> Refusal {
    Refusal(status: 400, reason: reason)
  }

  /// The field that carries a refusal from the framing check to the request callback.
  static let markerField = "x-authflow-refused"

  /// The head forwarded to evhttp in place of the refused request: one it parses as a bodiless
  /// GET, carrying `status reason` in ``markerField``.
  var syntheticHead: [UInt8] {
    let field = "\(Self.markerField): \(status) \(reason)"
    return Array("GET / HTTP/1.1\r\nHost: authflow\r\n\(field)\r\n\r\n".utf8)
  }

  /// The refusal a request carries, or nil for a request from a client.
  init?(markedIn req: OpaquePointer) {
    guard let headers = evhttp_request_get_input_headers(req),
      let value = evhttp_find_header(headers, Self.markerField)
    else { return nil }
    let text = String(cString: value)
    guard let space = text.firstIndex(of: " "), let status = Int(text[..<space]) else {
      return nil
    }
    self.init(status: status, reason: String(text[text.index(after: space)...]))
  }

  init(status: Int, reason: String) {
    self.status = status
    self.reason = reason
  }

  /// The refusal as the responder is told it.
  var refused: ServerRefusal {
    let kind: ServerRefusal.Kind =
      switch status {
      case 405: .methodNotAllowed
      case 413: .tooLarge
      case 414: .targetTooLong
      case 431: .headerTooLarge
      case 501: .notImplemented
      case 505: .versionNotSupported
      default: .malformed
      }
    return ServerRefusal(kind, status: status, reason: reason)
  }
}
