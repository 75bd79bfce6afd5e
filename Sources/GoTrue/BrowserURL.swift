#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An absolute URL's scheme, host and port as a browser reads them (the WHATWG URL Standard),
/// for the part of the grammar on which every reader agrees. Text a browser could read another
/// way is refused rather than guessed at, so a server that judges a URL by this value judges
/// the URL the browser will follow.
///
/// Refused: bytes outside printable ASCII (a browser removes tabs and newlines anywhere, so
/// `http://ev<TAB>il.example` is `evil.example` to it); backslashes (`\` ends the authority of
/// an http(s) URL, so `http://evil.example\@site.example/` leads to `evil.example`); userinfo;
/// a scheme not followed by `//` (`http:evil.example` is `evil.example` to a browser); `%` and
/// other characters beyond letters, digits, `-` and `.` in a host; and a host a browser reads
/// as an IPv4 number unless it is written in the dotted form it stands for (`127.1`,
/// `0x7f.0.0.1` and `2130706433` all lead to 127.0.0.1).
public struct BrowserURL: Equatable, Sendable {
  /// The scheme, lowercased (`https`).
  public let scheme: String
  /// The host: lowercased for http(s) and the other special schemes, an IPv6 address in
  /// brackets in its canonical form (`[::1]`); as written for other schemes (an app's).
  public let host: String
  /// The port, `nil` when it is the scheme's default (or none was given).
  public let port: Int?

  /// The longest text read; a longer one is refused.
  public static let maximumLength = 8_192

  /// The URL `text` names, or `nil` when it is not one or a browser could read it otherwise.
  public init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.count <= Self.maximumLength,
      bytes.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }),
      let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
      Self.isAlpha(bytes[0]),
      bytes[1..<colon].allSatisfy({
        Self.isAlpha($0) || Self.isDigit($0) || "+-.".utf8.contains($0)
      })
    else { return nil }
    let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
    // `file` URLs have host rules of their own; nothing here leads a browser to one.
    guard scheme != "file" else { return nil }
    let afterScheme = bytes[(colon + 1)...]
    guard afterScheme.starts(with: "//".utf8) else { return nil }
    let authorityStart = afterScheme.startIndex + 2
    let authorityEnd =
      bytes[authorityStart...].firstIndex(where: { "/?#".utf8.contains($0) }) ?? bytes.endIndex
    let authority = bytes[authorityStart..<authorityEnd]
    guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }
    let special = Self.defaultPorts[scheme] != nil
    guard let parts = Self.split(authority, special: special), let port = Self.port(parts.port)
    else { return nil }
    self.scheme = scheme
    self.host = parts.host
    self.port = port == Self.defaultPorts[scheme] ? nil : port
  }

  /// Whether the host is this machine as every browser resolves it: `localhost` and its
  /// subdomains (browsers answer those themselves, never from DNS), 127.0.0.0/8 and `[::1]`.
  public var isLoopback: Bool {
    host == "localhost" || host.hasSuffix(".localhost") || isLoopbackAddress
  }

  /// Whether the host is a loopback IP address (127.0.0.0/8 or `[::1]`), not a name.
  public var isLoopbackAddress: Bool {
    host == "[::1]" || (host.hasPrefix("127.") && Self.isDottedIPv4(host))
  }

  /// Whether the host is an IP address (an IPv6 one in brackets, or dotted IPv4), not a name.
  public var isIPAddress: Bool { host.hasPrefix("[") || Self.isDottedIPv4(host) }

  /// Whether the scheme is `http` or `https`.
  public var isHTTP: Bool { scheme == "http" || scheme == "https" }

  // MARK: Reading

  /// The ports the WHATWG standard calls default for its special schemes.
  private static let defaultPorts: [String: Int] = [
    "http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21,
  ]

  /// The host and the text after its `:`; `nil` when the host is not one every reader agrees on.
  private static func split(_ authority: ArraySlice<UInt8>, special: Bool)
    -> (host: String, port: ArraySlice<UInt8>)?
  {
    if authority.first == UInt8(ascii: "[") {
      guard let close = authority.firstIndex(of: UInt8(ascii: "]")),
        let address = canonicalIPv6(authority[(authority.startIndex + 1)..<close])
      else { return nil }
      let rest = authority[(close + 1)...]
      guard rest.isEmpty || rest.first == UInt8(ascii: ":") else { return nil }
      return ("[\(address)]", rest.dropFirst())
    }
    let colon = authority.firstIndex(of: UInt8(ascii: ":")) ?? authority.endIndex
    let name = authority[..<colon]
    let labels = name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard !name.isEmpty, labels.allSatisfy({ !$0.isEmpty }),
      name.allSatisfy({ isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == 0x2E })
    else { return nil }
    let text = String(decoding: name, as: UTF8.self)
    let host = special ? text.lowercased() : text
    // A special URL's host whose last label is a number is an IPv4 address to a browser,
    // whatever the other labels say: accept only the dotted form it would print.
    if special, let last = labels.last, endsInNumber(last), !isDottedIPv4(host) { return nil }
    return (host, authority[colon...].dropFirst())
  }

  /// The port written in `text` (`.some(nil)` for none), or `nil` when it is not a port.
  private static func port(_ text: ArraySlice<UInt8>) -> Int?? {
    guard !text.isEmpty else { return .some(nil) }
    guard text.count <= 5, text.allSatisfy(isDigit),
      let value = Int(String(decoding: text, as: UTF8.self)), value <= 65_535
    else { return nil }
    return .some(value)
  }

  /// WHATWG's "ends in a number": a label of digits, or `0x` and hexadecimal digits.
  private static func endsInNumber(_ label: ArraySlice<UInt8>) -> Bool {
    if label.allSatisfy(isDigit) { return true }
    let lower = label.map { $0 | 0x20 }
    return lower.starts(with: "0x".utf8)
      && lower.dropFirst(2).allSatisfy { isDigit($0) || (0x61...0x66).contains($0) }
  }

  /// Whether `host` is four decimal numbers from 0 to 255, without leading zeros.
  private static func isDottedIPv4(_ host: String) -> Bool {
    let parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(isDigit)
          && (part.count == 1 || part.first != UInt8(ascii: "0"))
          && Int(String(decoding: part, as: UTF8.self)).map { $0 <= 255 } == true
      }
  }

  /// The IPv6 address `text` in its canonical form, through the C library.
  private static func canonicalIPv6(_ text: ArraySlice<UInt8>) -> String? {
    var address = in6_addr()
    let parsed = (Array(text) + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { inet_pton(AF_INET6, $0.baseAddress, &address) }
    }
    guard parsed == 1 else { return nil }
    var output = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    guard inet_ntop(AF_INET6, &address, &output, socklen_t(output.count)) != nil else {
      return nil
    }
    return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func isAlpha(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
