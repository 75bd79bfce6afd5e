/// What a valid request head says about the body after it.
enum BodyFraming: Equatable {
  /// No body: the next byte starts the next request.
  case none
  /// A body of this many bytes (at least 1, at most the body limit).
  case length(Int)
  /// A chunked body.
  case chunked
  /// A body of this many bytes that is read and dropped: libevent reads none for HEAD or
  /// TRACE, whatever the head says, where Go's server reads it (and GoTrue ignores it).
  case droppedLength(Int)
  /// A chunked body read and dropped, for the same reason.
  case droppedChunked
}

/// The whole check of one complete request head (RFC 9112 §2–§6): the request line, every
/// field line, `Host`, and the body's framing, which must be one libevent reads the same way.
enum HeadCheck {
  /// The framing of the body after `head` (request line through the blank line, CRLFs
  /// included), or the refusal that answers it.
  static func framing(
    of head: UnsafeRawBufferPointer, maxBodyBytes: Int
  ) throws(Refusal) -> BodyFraming {
    var start = 0
    var requestLine: RequestLine?
    var fields = HeadFields()
    while let end = head[start...].firstIndex(of: 0x0A) {
      guard end > start, head[end - 1] == 0x0D else { throw .badRequest("bare LF line ending") }
      let line = UnsafeRawBufferPointer(rebasing: head[start..<(end - 1)])
      start = end + 1
      if requestLine == nil {
        requestLine = try RequestLine(line)
      } else if line.isEmpty {
        break
      } else {
        try fields.add(line)
      }
    }
    guard let requestLine, start == head.count else {
      throw .badRequest("incomplete request head")
    }
    return try framing(requestLine, fields, maxBodyBytes: maxBodyBytes)
  }

  private static func framing(
    _ line: RequestLine, _ fields: HeadFields, maxBodyBytes: Int
  ) throws(Refusal) -> BodyFraming {
    if line.isHTTP11 && fields.hosts == 0 { throw .badRequest("HTTP/1.1 request without Host") }
    if fields.hosts > 1 { throw .badRequest("more than one Host field") }
    if let coding = fields.transferCoding {
      if !line.isHTTP11 { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
      if fields.contentLength != nil {
        throw .badRequest("both Transfer-Encoding and Content-Length")
      }
      switch coding {
      case .chunked: return readsNoBody(line.method) ? .droppedChunked : .chunked
      case .unsupported:
        throw Refusal(status: 501, reason: "transfer codings other than chunked")
      case .notChunkedLast: throw .badRequest("Transfer-Encoding does not end in chunked")
      }
    }
    guard let length = fields.contentLength, length > 0 else { return .none }
    guard length <= maxBodyBytes else {
      throw Refusal(status: 413, reason: "Content-Length over the \(maxBodyBytes)-byte limit")
    }
    return readsNoBody(line.method) ? .droppedLength(length) : .length(length)
  }

  /// HEAD and TRACE: libevent reads no body for them, so the check drops any they carry
  /// (otherwise it would be taken for the next request).
  private static func readsNoBody(_ method: HTTPMethod) -> Bool {
    method == .head || method == .trace
  }
}
