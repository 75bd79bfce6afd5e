/// A URL as Go's `url.ParseRequestURI` reads one, for GoTrue's checks of a Web3 message's URI:
/// an absolute URI (a scheme, then `//` and an authority, or a path) or an absolute path, with
/// no control characters, a host of the characters Go allows and a port of digits only. Only
/// what those checks use is kept: the scheme (lowercased, as Go does), the host with its port as
/// written, and the text itself.
package struct GoRequestURI: Equatable, Sendable {
  /// The text read, which Go's `URL.String()` gives back for the URIs messages carry.
  package let text: String
  /// The scheme, lowercased; empty for an absolute path.
  package let scheme: String
  /// The host and port as written (`URL.Host`); empty when there is no authority.
  package let host: String

  /// The URL `text` is, or `nil` where Go's `url.ParseRequestURI` fails.
  package init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
    var rest = bytes[...]
    var scheme = ""
    if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
      Self.isScheme(bytes[..<colon])
    {
      guard colon > 0 else { return nil }  // "missing protocol scheme"
      scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
      rest = bytes[(colon + 1)...]
    }
    if let question = rest.firstIndex(of: UInt8(ascii: "?")) { rest = rest[..<question] }
    // A request's URI is absolute or an absolute path: `mailto:x` and `x/y` are refused.
    guard rest.first == UInt8(ascii: "/") else { return nil }
    var host = ""
    if !scheme.isEmpty, rest.starts(with: "//".utf8) {
      let authority = rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") }
      let afterUser =
        authority.lastIndex(of: UInt8(ascii: "@")).map { authority[($0 + 1)...] } ?? authority
      guard Self.isHost(afterUser) else { return nil }
      host = String(decoding: afterUser, as: UTF8.self)
      rest = rest[(authority.endIndex)...]
    }
    guard Self.hasValidEscapes(rest) else { return nil }
    self.text = text
    self.scheme = scheme
    self.host = host
  }

  /// The host without its port or an IPv6 address' brackets (`URL.Hostname()`).
  package var hostname: String {
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
      return String(host[host.index(after: host.startIndex)..<close])
    }
    guard let colon = host.lastIndex(of: ":") else { return host }
    return String(host[..<colon])
  }

  /// Whether the text before the first colon is a scheme (Go's `getScheme`): a letter, then
  /// letters, digits, `+`, `-` and `.`; text with any other character there has no scheme.
  private static func isScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
    for (offset, byte) in bytes.enumerated() {
      let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
      let other =
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.".utf8.contains(byte)
      if !letter && !(offset > 0 && other) { return false }
    }
    return true
  }

  /// Go's `parseHost`: a bracketed IPv6 address or a name, then an optional `:` and digits;
  /// a name's characters those `shouldEscape` allows in a host, `%` escapes aside.
  private static func isHost(_ bytes: ArraySlice<UInt8>) -> Bool {
    var name = bytes
    var port: ArraySlice<UInt8> = []
    if bytes.first == UInt8(ascii: "[") {
      guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
      name = bytes[bytes.startIndex...close]
      port = bytes[(close + 1)...]
      guard port.isEmpty || port.first == UInt8(ascii: ":") else { return false }
    } else if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
      name = bytes[..<colon]
      port = bytes[colon...]
    }
    guard port.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return false }
    let allowed = Set("-_.~!$&'()*+,;=:[]<>\"%".utf8)
    return name.allSatisfy { byte in
      byte >= 0x80 || allowed.contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    } && hasValidEscapes(name)
  }

  /// Whether every `%` is followed by two hexadecimal digits.
  private static func hasValidEscapes(_ bytes: ArraySlice<UInt8>) -> Bool {
    var index = bytes.startIndex
    while let percent = bytes[index...].firstIndex(of: UInt8(ascii: "%")) {
      let digits = bytes[(percent + 1)...].prefix(2)
      guard digits.count == 2, digits.allSatisfy({ $0 < 0x80 && Character(.init($0)).isHexDigit })
      else { return false }
      index = percent + 3
    }
    return true
  }
}
