/// A request line checked against RFC 9112 §3: `method SP request-target SP HTTP-version`,
/// one space each, nothing else. libevent strips trailing spaces, splits on the last space and
/// reads the version with `sscanf`; this is stricter on each count.
struct RequestLine: Equatable {
  /// The method, one of those the server serves.
  var method: HTTPMethod
  /// HTTP/1.1 rather than HTTP/1.0.
  var isHTTP11: Bool

  /// Checks `line` (without its CRLF).
  init(_ line: UnsafeRawBufferPointer) throws(Refusal) {
    let malformed = Refusal.badRequest("malformed request line")
    guard let firstSpace = line.firstIndex(of: 0x20), firstSpace > 0,
      let secondSpace = line[(firstSpace + 1)...].firstIndex(of: 0x20),
      secondSpace > firstSpace + 1
    else { throw malformed }
    let method = UnsafeRawBufferPointer(rebasing: line[..<firstSpace])
    let target = UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
    let version = UnsafeRawBufferPointer(rebasing: line[(secondSpace + 1)...])
    guard method.allSatisfy(HTTPBytes.isToken) else { throw malformed }
    guard target.allSatisfy(HTTPBytes.isVisible) else {
      throw .badRequest("request target with a control, space or non-ASCII byte")
    }
    let (major, minor) = try Self.version(version)
    guard major == 1, minor <= 1 else {
      throw Refusal(status: 505, reason: "HTTP/\(major).\(minor) is not supported")
    }
    guard let known = HTTPMethod(rawValue: String(decoding: method, as: UTF8.self)) else {
      throw Refusal(status: 405, reason: "method not allowed")
    }
    try Self.checkForm(of: target, method: known)
    self.method = known
    self.isHTTP11 = minor == 1
  }

  /// `HTTP/` DIGIT `.` DIGIT, exactly (HTTP-name is case-sensitive).
  private static func version(_ bytes: UnsafeRawBufferPointer) throws(Refusal) -> (Int, Int) {
    guard bytes.count == 8, bytes.starts(with: "HTTP/".utf8), HTTPBytes.isDigit(bytes[5]),
      bytes[6] == UInt8(ascii: "."), HTTPBytes.isDigit(bytes[7])
    else { throw .badRequest("malformed HTTP version") }
    return (Int(bytes[5] - UInt8(ascii: "0")), Int(bytes[7] - UInt8(ascii: "0")))
  }

  /// Origin form (`/path?query`), absolute form (`http://host/path`), or `*` for OPTIONS.
  private static func checkForm(
    of target: UnsafeRawBufferPointer, method: HTTPMethod
  ) throws(Refusal) {
    let first = target[0]
    if first == UInt8(ascii: "/") { return }
    if first == UInt8(ascii: "*") && target.count == 1 && method == .options { return }
    let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(HTTPBytes.lowercased(first))
    if isLetter, let colon = target.firstIndex(of: UInt8(ascii: ":")),
      target[colon...].starts(with: "://".utf8)
    {
      return
    }
    throw .badRequest("request target is neither a path nor an absolute URL")
  }
}
