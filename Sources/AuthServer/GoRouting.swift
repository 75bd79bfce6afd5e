import HTTPServer

/// How GoTrue's router (chi over Go's `net/url`) reads a request's path before matching it:
/// on the path as sent when Go keeps it (`URL.RawPath`: the target's escaping is not the one Go
/// would write for the decoded path, as with `%2F` or `%61`), else on the decoded path; parts
/// split at the `/` byte, so a part may start with a combining mark.
enum GoRouting {
  /// The path chi matches for `request`.
  static func path(of request: HTTPRequest) -> String {
    let raw = request.rawPath
    guard raw.utf8.contains(UInt8(ascii: "%")) else { return request.path }
    return raw == escaped(request.path) ? request.path : raw
  }

  /// `path` escaped as Go's `url.URL.EscapedPath` escapes a decoded path (`shouldEscape` in
  /// `encodePath` mode): letters, digits, `-_.~` and `$&+,/:;=@` kept, every other byte as
  /// `%XX` in capitals.
  static func escaped(_ path: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count)
    for byte in path.utf8 {
      if keeps(byte) {
        bytes.append(byte)
      } else {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The parts of `path` between `/` bytes, empty ones dropped.
  static func parts(of path: String) -> [Substring] {
    path.utf8.split(separator: UInt8(ascii: "/")).map { path[$0.startIndex..<$0.endIndex] }
  }

  private static let hex = Array("0123456789ABCDEF".utf8)

  private static func keeps(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: "-_.~$&+,/:;=@".utf8.contains(byte)
    }
  }
}

/// GoTrue's route groups that check their caller before routing within them (`api.go`:
/// `r.With(api.requireAuthentication).Route("/user", …)`, `Route("/admin")` with
/// `requireAdminCredentials`), so a path or method they do not serve is refused to a stranger
/// as any of their routes would be, and only then answered 404 or 405.
enum GuardedGroup {
  /// The check the group of `path` makes first, if it is in one.
  static func access(of path: String) -> RouteAccess? {
    let first = GoRouting.parts(of: path).first
    switch first {
    case "admin": return .admin
    case "user", "factors", "reauthenticate": return .user
    default: return nil
    }
  }
}
