import CEvent

/// The request methods the server hands to a responder.
///
/// evhttp is told to allow exactly these, so a route the responder does not know still reaches
/// it (and can answer 404 or 405). Methods outside this set (CONNECT, whose target evhttp reads
/// as an authority, and any method evhttp does not know) are refused by the framing check
/// (``RequestLine``) with a 405 before evhttp parses them, as Go's chi router refuses a method
/// it has no table entry for.
public enum HTTPMethod: String, Sendable, CaseIterable {
  case get = "GET"
  case head = "HEAD"
  case post = "POST"
  case put = "PUT"
  case delete = "DELETE"
  case patch = "PATCH"
  case options = "OPTIONS"
  case trace = "TRACE"

  /// evhttp's name for this method.
  var command: evhttp_cmd_type {
    switch self {
    case .get: EVHTTP_REQ_GET
    case .head: EVHTTP_REQ_HEAD
    case .post: EVHTTP_REQ_POST
    case .put: EVHTTP_REQ_PUT
    case .delete: EVHTTP_REQ_DELETE
    case .patch: EVHTTP_REQ_PATCH
    case .options: EVHTTP_REQ_OPTIONS
    case .trace: EVHTTP_REQ_TRACE
    }
  }

  /// The method evhttp parsed, or nil for one outside the allowed set.
  init?(_ command: evhttp_cmd_type) {
    guard let method = Self.allCases.first(where: { $0.command == command }) else { return nil }
    self = method
  }

  /// The bit set for `evhttp_set_allowed_methods`.
  static var allowedMask: UInt16 {
    UInt16(truncatingIfNeeded: allCases.reduce(0) { $0 | $1.command.rawValue })
  }
}
