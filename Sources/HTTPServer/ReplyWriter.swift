import CEvent

/// Copies an ``HTTPResponse`` into evhttp and sends it (loop thread only).
///
/// A reply that cannot go out exactly as built becomes the responder's 500: a missing header
/// (libevent's `evhttp_add_header` drops a value with CR or LF) could be a missing `Location`
/// or `Set-Cookie`, and a folded or injected one could split the response.
enum ReplyWriter {
  /// What went out: the status sent, and why the responder's reply was replaced, if it was.
  struct Outcome: Equatable {
    var status: Int
    var problem: String?
  }

  /// Sends `response` on `req`. `isHead` drops the body (after giving its length);
  /// `closing` adds `Connection: close`, so evhttp closes the connection after this reply;
  /// `failure` is sent instead when `response` cannot go out as built.
  static func send(
    _ response: HTTPResponse, to req: OpaquePointer, isHead: Bool, closing: Bool,
    failure: @autoclosure () -> HTTPResponse
  ) -> Outcome {
    if let problem = problem(in: response) {
      return fail(problem, failure(), req: req, isHead: isHead, closing: closing)
    }
    guard let headers = evhttp_request_get_output_headers(req) else {
      return fail(
        "evhttp has no output headers", failure(), req: req, isHead: isHead, closing: closing)
    }
    for header in response.headers where !isFraming(header.name) {
      guard evhttp_add_header(headers, header.name, header.value) == 0 else {
        evhttp_clear_headers(headers)
        return fail(
          "libevent refused header \(header.name)", failure(), req: req, isHead: isHead,
          closing: closing)
      }
    }
    // A type only for a body, as Go's server: an empty 405 says nothing of its content.
    if !response.body.isEmpty, evhttp_find_header(headers, "Content-Type") == nil {
      _ = evhttp_add_header(headers, "Content-Type", "application/json")
    }
    if closing {
      _ = evhttp_remove_header(headers, "Connection")
      _ = evhttp_add_header(headers, "Connection", "close")
    }
    let hasBody = response.status != 204 && response.status != 304
    if hasBody && isHead {
      // NB: libevent adds no Content-Length to a HEAD reply; give the one GET would have.
      _ = evhttp_add_header(headers, "Content-Length", String(response.body.count))
    } else if hasBody && !response.body.isEmpty, let output = evhttp_request_get_output_buffer(req)
    {
      // NB: evhttp_make_header sends whatever is in the output buffer, even for HEAD, 204
      // and 304, so the body is only added when the reply may carry one.
      response.body.withUnsafeBytes { _ = evbuffer_add(output, $0.baseAddress, $0.count) }
    }
    evhttp_send_reply(req, Int32(response.status), nil, nil)
    return Outcome(status: response.status, problem: nil)
  }

  /// Why `response` cannot be sent as built, or nil.
  static func problem(in response: HTTPResponse) -> String? {
    if !(200...599).contains(response.status) {
      return "status \(response.status) is outside 200...599"
    }
    for (name, value) in response.headers {
      if name.isEmpty || !name.utf8.allSatisfy(HTTPBytes.isToken) {
        return "header name \(quoted: name) is not an HTTP token"
      }
      if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
        return "header \(name) has CR, LF or NUL in its value"
      }
    }
    return nil
  }

  private static func fail(
    _ problem: String, _ failure: HTTPResponse, req: OpaquePointer, isHead: Bool, closing: Bool
  ) -> Outcome {
    // A failure that cannot be sent either is sent as the plain 500 below.
    let sendable = Self.problem(in: failure) == nil ? failure : plainFailure
    let sent = send(sendable, to: req, isHead: isHead, closing: closing, failure: plainFailure)
    return Outcome(status: sent.status, problem: problem)
  }

  /// The 500 of last resort.
  private static let plainFailure = HTTPResponse(
    status: 500, headers: [("Content-Type", "text/plain; charset=utf-8")],
    body: Array("Unexpected failure\n".utf8))

  /// Content-Length and Transfer-Encoding are the server's: evhttp frames the body, and a
  /// responder's value could disagree with it and corrupt the next reply on the connection.
  private static func isFraming(_ name: String) -> Bool {
    asciiCaseInsensitiveEqual(name, "Content-Length")
      || asciiCaseInsensitiveEqual(name, "Transfer-Encoding")
  }
}

extension String.StringInterpolation {
  /// A name that may hold control characters, escaped for a one-line log.
  fileprivate mutating func appendInterpolation(quoted text: String) {
    appendLiteral("\"")
    appendLiteral(text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())
    appendLiteral("\"")
  }
}
