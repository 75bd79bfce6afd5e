/// A URL split as Go's `net/url.Parse` splits one, for the checks GoTrue's OAuth server makes
/// of redirect URIs and resources: the scheme (lowercased), the host (`Hostname()`: no port,
/// no brackets), the query and the fragment. Text `Parse` refuses (a control character, a bad
/// `%` escape, a space or `%` in a host, a colon first) is `nil`.
package struct GoURL: Equatable, Sendable {
  /// The scheme, lowercased; empty for a relative reference.
  package var scheme = ""
  /// Whether `//authority` followed the scheme.
  package var hasAuthority = false
  /// The authority's host, without its port and brackets.
  package var hostname = ""
  /// The authority's host and port, as written (Go's `URL.Host`).
  package var host = ""
  /// What follows `?`, up to the fragment.
  package var query = ""
  /// What follows `#`.
  package var fragment = ""

  /// `text` as `url.Parse` reads it, or `nil` where it fails.
  package init?(_ text: String) {
    var rest = Substring(text)
    guard !rest.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
    if let hash = rest.firstIndex(of: "#") {
      fragment = String(rest[rest.index(after: hash)...])
      rest = rest[..<hash]
      guard Self.escapesAreValid(fragment) else { return nil }
    }
    guard !rest.isEmpty else { return }
    if let colon = rest.firstIndex(of: ":") {
      let candidate = rest[..<colon]
      if candidate.isEmpty { return nil }  // "missing protocol scheme"
      if let first = candidate.utf8.first, Self.isLetter(first),
        candidate.utf8.allSatisfy({
          Self.isLetter($0) || (0x30...0x39).contains($0) || "+-.".utf8.contains($0)
        })
      {
        scheme = candidate.lowercased()
        rest = rest[rest.index(after: colon)...]
      }
    }
    if let question = rest.firstIndex(of: "?") {
      query = String(rest[rest.index(after: question)...])
      rest = rest[..<question]
    }
    if rest.hasPrefix("//") {
      hasAuthority = true
      let authority = rest.dropFirst(2).prefix { $0 != "/" }
      rest = rest.dropFirst(2 + authority.count)
      let hostPart =
        authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
      guard Self.hostIsValid(hostPart) else { return nil }
      host = String(hostPart)
      hostname = Self.hostname(of: hostPart)
    }
    guard Self.escapesAreValid(rest) else { return nil }
  }

  /// Whether every `%` in `text` starts an escape of two hexadecimal digits.
  private static func escapesAreValid(_ text: some StringProtocol) -> Bool {
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%") {
        guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else {
          return false
        }
        index += 3
      } else {
        index += 1
      }
    }
    return true
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  private static func isHex(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
  }

  /// Go's `parseHost`: no space, and `%` only in an IPv6 zone.
  private static func hostIsValid(_ host: Substring) -> Bool {
    if host.hasPrefix("[") { return host.contains("]") }
    return !host.utf8.contains(where: { $0 == 0x20 || $0 == UInt8(ascii: "%") })
  }

  /// Go's `URL.Hostname()`: the host without its port, an IPv6 address without brackets.
  private static func hostname(of host: Substring) -> String {
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
      return String(host[host.index(after: host.startIndex)..<close])
    }
    if let colon = host.lastIndex(of: ":") { return String(host[..<colon]) }
    return String(host)
  }
}
