import Glibc

/// Finds where a request head ends (its blank line) as its bytes arrive, looking at each byte
/// once, and refuses early what can never become a valid head: a bare LF, or a head longer than
/// the limit.
struct HeadScanner {
  /// What the bytes so far amount to.
  enum Progress: Equatable {
    /// No blank line yet.
    case incomplete
    /// A CRLF before the request line, which RFC 9112 §2.2 says to ignore: the caller drops
    /// these 2 bytes and starts a new scanner.
    case leadingBlankLine
    /// The head is complete: this many bytes, its final CRLF CRLF included.
    case head(length: Int)
  }

  /// The most bytes a head may take, CRLFs included.
  let limit: Int
  /// How many bytes have been looked at.
  private(set) var scanned = 0
  private var lineStart = 0
  private var lastByte: UInt8 = 0

  /// A scanner for a head of at most `limit` bytes.
  init(limit: Int) {
    self.limit = limit
  }

  /// Looks at the next bytes of the stream; stops at the end of the head, so bytes after it are
  /// left for the body or the next request.
  mutating func scan(_ bytes: UnsafeRawBufferPointer) throws(Refusal) -> Progress {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return .incomplete }
    var offset = 0
    while offset < bytes.count {
      guard let found = memchr(base + offset, 0x0A, bytes.count - offset) else { break }
      let index = base.distance(to: UnsafeRawPointer(found))
      let before = index > 0 ? bytes[index - 1] : lastByte
      let position = scanned + index
      guard before == 0x0D else { throw .badRequest("bare LF line ending") }
      guard position < limit else { throw overLimit }
      if position - lineStart == 1 {
        scanned = position + 1
        if lineStart == 0 { return .leadingBlankLine }
        return .head(length: position + 1)
      }
      lineStart = position + 1
      offset = index + 1
    }
    scanned += bytes.count
    lastByte = bytes[bytes.count - 1]
    if scanned > limit { throw overLimit }
    return .incomplete
  }

  /// 414 while the request line is not over yet, 431 after it.
  private var overLimit: Refusal {
    lineStart == 0
      ? Refusal(status: 414, reason: "request line over \(limit) bytes")
      : Refusal(status: 431, reason: "request head over \(limit) bytes")
  }
}
