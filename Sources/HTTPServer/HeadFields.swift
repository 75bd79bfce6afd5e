/// The field lines of a request head checked against RFC 9112 §5, and what they say about the
/// body's framing.
///
/// Every field line must be `field-name ":" OWS field-value OWS` with a token for the name and
/// no control byte but HTAB in the value. libevent accepts obs-fold, a space before the colon,
/// bytes after a NUL, repeated `Host` and conflicting `Content-Length` (its first one wins), so
/// each of those is refused here.
struct HeadFields {
  /// What `Transfer-Encoding` said.
  enum TransferCoding: Equatable {
    /// Exactly `chunked`, read the same way by libevent.
    case chunked
    /// A list ending in `chunked` with other codings before it.
    case unsupported
    /// Anything else: the body's length cannot be known.
    case notChunkedLast
  }

  /// The `Content-Length` value, saturated at `Int.max`.
  private(set) var contentLength: Int?
  /// The `Transfer-Encoding`, if there was one.
  private(set) var transferCoding: TransferCoding?
  /// How many `Host` fields there were.
  private(set) var hosts = 0

  /// Checks one field line (without its CRLF) and notes what it says about the framing.
  mutating func add(_ line: UnsafeRawBufferPointer) throws(Refusal) {
    guard let first = line.first, !HTTPBytes.isBlank(first) else {
      throw .badRequest("obs-fold: a field line starts with whitespace")
    }
    guard let colon = line.firstIndex(where: { !HTTPBytes.isToken($0) }) else {
      throw .badRequest("field line without a colon")
    }
    guard line[colon] == UInt8(ascii: ":") else {
      throw .badRequest(
        HTTPBytes.isBlank(line[colon])
          ? "whitespace between a field name and its colon" : "invalid byte in a field name")
    }
    guard colon > 0 else { throw .badRequest("empty field name") }
    let rest = UnsafeRawBufferPointer(rebasing: line[(colon + 1)...])
    switch rest.first(where: { $0 != 0x09 && ($0 < 0x20 || $0 == 0x7F) }) {
    case nil: break
    case 0: throw .badRequest("NUL in a field value")
    case 0x0D: throw .badRequest("bare CR in a field value")
    default: throw .badRequest("control byte in a field value")
    }
    let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
    try note(name: name, rest: rest)
  }

  private mutating func note(
    name: UnsafeRawBufferPointer, rest: UnsafeRawBufferPointer
  ) throws(Refusal) {
    let value = Self.trimmed(rest)
    if HTTPBytes.equal(name, ignoringCase: "content-length") {
      let length = try Self.length(value)
      if let contentLength, contentLength != length {
        throw .badRequest("two different Content-Length values")
      }
      contentLength = length
    } else if HTTPBytes.equal(name, ignoringCase: "transfer-encoding") {
      guard transferCoding == nil else {
        throw .badRequest("more than one Transfer-Encoding field")
      }
      // NB: libevent skips spaces, not tabs, before a value; it would read `\tchunked` as no
      // coding at all and take the body for the next request.
      if rest.first(where: { $0 != 0x20 }) == 0x09 {
        throw .badRequest("tab before the Transfer-Encoding value")
      }
      transferCoding = Self.coding(value)
    } else if HTTPBytes.equal(name, ignoringCase: "host") {
      guard value.allSatisfy(Self.isHostByte) else { throw .badRequest("invalid Host value") }
      hosts += 1
    } else if HTTPBytes.equal(name, ignoringCase: "x-authflow-refused") {
      throw .badRequest("reserved field \(Refusal.markerField)")
    }
  }

  /// `1*DIGIT`, nothing else (no sign, no list).
  private static func length(_ value: UnsafeRawBufferPointer) throws(Refusal) -> Int {
    guard !value.isEmpty, value.allSatisfy(HTTPBytes.isDigit) else {
      throw .badRequest("Content-Length is not a decimal number")
    }
    var length = 0
    for digit in value {
      let (times10, overflow) = length.multipliedReportingOverflow(by: 10)
      let (sum, overflowAgain) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
      guard !overflow && !overflowAgain else { return .max }
      length = sum
    }
    return length
  }

  /// The coding list: exactly `chunked` is served; a list whose last entry is `chunked` is a
  /// coding this server does not implement; otherwise the length is unknowable.
  private static func coding(_ value: UnsafeRawBufferPointer) -> TransferCoding {
    if HTTPBytes.equal(value, ignoringCase: "chunked") { return .chunked }
    let last = value.lastIndex(of: UInt8(ascii: ",")).map { $0 + 1 } ?? 0
    let lastCoding = trimmed(UnsafeRawBufferPointer(rebasing: value[last...]))
    return HTTPBytes.equal(lastCoding, ignoringCase: "chunked") ? .unsupported : .notChunkedLast
  }

  /// A `Host` value: a registered name, an IPv4 address or a bracketed IPv6 one, and a port.
  private static func isHostByte(_ byte: UInt8) -> Bool {
    let letter = HTTPBytes.lowercased(byte)
    return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(letter) || HTTPBytes.isDigit(byte)
      || "-._~!$&'()*+,;=%:[]".utf8.contains(byte)
  }

  /// `value` without optional whitespace at either end.
  private static func trimmed(_ value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    guard let start = value.firstIndex(where: { !HTTPBytes.isBlank($0) }),
      let end = value.lastIndex(where: { !HTTPBytes.isBlank($0) })
    else { return UnsafeRawBufferPointer(rebasing: value[0..<0]) }
    return UnsafeRawBufferPointer(rebasing: value[start...end])
  }
}
