/// Follows a chunked body (RFC 9112 §7.1) as its bytes arrive, looking at each framing byte once
/// and skipping chunk data whole, and refuses what libevent would read differently or merge
/// into the request.
///
/// Stricter than libevent on each count: a chunk size is 1 to 16 `HEXDIG`s and nothing else
/// (libevent's `strtoll(…, 16)` takes `0x`, a sign and spaces), no chunk extension, a CRLF
/// after each chunk's data (libevent skips any line there), and an empty trailer section
/// (libevent adds trailer fields to the request's headers, where a second `Host` or an
/// `Authorization` would hide).
struct ChunkedBodyScanner {
  private enum Phase {
    case size(digits: Int, value: Int)
    case sizeLF(value: Int)
    case data(left: Int)
    case dataCR
    case dataLF
    case trailerCR
    case trailerLF
  }

  /// The most chunk data the body may hold.
  let maxBodyBytes: Int
  /// The most framing bytes (size lines and CRLFs) the body may hold: it is held whole until
  /// its end, so tiny chunks must not make it much larger than its data.
  let maxFramingBytes: Int
  private var phase = Phase.size(digits: 0, value: 0)
  private var bodyBytes = 0
  private var framingBytes = 0

  /// A scanner for a body of at most `maxBodyBytes` of data.
  init(maxBodyBytes: Int, maxFramingBytes: Int) {
    self.maxBodyBytes = maxBodyBytes
    self.maxFramingBytes = maxFramingBytes
  }

  /// Looks at the next bytes of the body; returns how many of them complete it (the last
  /// chunk and the empty trailer section included), or nil when it goes on.
  mutating func scan(_ bytes: UnsafeRawBufferPointer) throws(Refusal) -> Int? {
    var index = 0
    while index < bytes.count {
      if case .data(let left) = phase {
        let taken = min(left, bytes.count - index)
        index += taken
        phase = left == taken ? .dataCR : .data(left: left - taken)
        continue
      }
      framingBytes += 1
      if framingBytes > maxFramingBytes {
        throw Refusal(status: 413, reason: "chunk framing over \(maxFramingBytes) bytes")
      }
      let byte = bytes[index]
      index += 1
      if try step(byte) { return index }
    }
    return nil
  }

  /// One framing byte; true at the end of the body.
  private mutating func step(_ byte: UInt8) throws(Refusal) -> Bool {
    switch phase {
    case .size(let digits, let value):
      if let digit = HTTPBytes.hexValue(byte) {
        guard digits < 16 else { throw .badRequest("chunk size over 16 hex digits") }
        let grown = value > (Int.max - digit) / 16 ? Int.max : value * 16 + digit
        guard grown <= maxBodyBytes - bodyBytes else {
          throw Refusal(status: 413, reason: "chunked body over the \(maxBodyBytes)-byte limit")
        }
        phase = .size(digits: digits + 1, value: grown)
      } else if byte == 0x0D && digits > 0 {
        phase = .sizeLF(value: value)
      } else if byte == UInt8(ascii: ";") && digits > 0 {
        throw .badRequest("chunk extension")
      } else {
        throw .badRequest("chunk size is not hexadecimal digits")
      }
    case .sizeLF(let value):
      guard byte == 0x0A else { throw .badRequest("bare CR after a chunk size") }
      bodyBytes += value
      phase = value == 0 ? .trailerCR : .data(left: value)
    case .data:
      preconditionFailure("chunk data is skipped whole")
    case .dataCR, .dataLF:
      let expected: UInt8 = if case .dataCR = phase { 0x0D } else { 0x0A }
      guard byte == expected else { throw .badRequest("chunk data not followed by CRLF") }
      phase = expected == 0x0D ? .dataLF : .size(digits: 0, value: 0)
    case .trailerCR:
      guard byte == 0x0D else { throw .badRequest("trailer fields after the last chunk") }
      phase = .trailerLF
    case .trailerLF:
      guard byte == 0x0A else { throw .badRequest("bare CR after the last chunk") }
      return true
    }
    return false
  }
}
