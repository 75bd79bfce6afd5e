/// The emulator's own lenient checks of what a request names (`utils.ts`), where they differ
/// from the stricter ones the store applies to what it keeps.
enum FirebaseRules {
  /// Whether `text` has the emulator's email form, `^[^@]+@[^@]+$`: something, one `@`,
  /// something.
  static func isEmailForm(_ text: String) -> Bool {
    let parts = text.utf8.split(separator: UInt8(ascii: "@"), omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
  }

  /// Whether `text` parses as an absolute URL, as `new URL(text)` does in the emulator (the
  /// WHATWG URL parser without a base): a scheme, then for `http`, `https`, `ws`, `wss` and
  /// `ftp` a host with no forbidden character and a numeric port; other schemes take almost
  /// anything. Only the outcome is wanted, so the parts are not kept.
  static func isAbsoluteURI(_ text: String) -> Bool {
    // The parser drops leading and trailing controls and spaces, and tabs and newlines anywhere.
    var bytes = Array(text.utf8).filter { ![0x09, 0x0A, 0x0D].contains($0) }
    while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
    while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isAlpha(bytes[0]),
      bytes[1..<colon].allSatisfy({ isAlpha($0) || isDigit($0) || "+-.".utf8.contains($0) })
    else { return false }
    let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
    var rest = bytes[(colon + 1)...]
    let special = ["http", "https", "ws", "wss", "ftp"].contains(scheme)
    if scheme == "file" { return true }
    if special {
      rest = rest.drop { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }
    } else {
      guard rest.starts(with: "//".utf8) else { return true }
      rest = rest.dropFirst(2)
    }
    let ends: Set<UInt8> = special ? Set("/\\?#".utf8) : Set("/?#".utf8)
    var authority = rest.prefix { !ends.contains($0) }
    if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
      authority = authority[(at + 1)...]
    }
    var host = authority
    var port = authority[authority.endIndex...]
    if authority.first == UInt8(ascii: "[") {
      guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return false }
      host = authority[...close]
      let inside = authority[authority.index(after: authority.startIndex)..<close]
      guard !inside.isEmpty, inside.allSatisfy({ isHex($0) || ":.".utf8.contains($0) })
      else { return false }
      port = authority[authority.index(after: close)...]
      guard port.isEmpty || port.first == UInt8(ascii: ":") else { return false }
    } else {
      if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
        host = authority[..<portColon]
        port = authority[portColon...]
      }
      let forbidden = Set(" #%/:<>?@[\\]^|".utf8)
      guard host.allSatisfy({ $0 > 0x1F && $0 != 0x7F && !forbidden.contains($0) }) else {
        return false
      }
      if special, host.isEmpty { return false }
    }
    let digits = port.dropFirst()
    guard digits.allSatisfy(isDigit) else { return false }
    return digits.isEmpty || (Int(String(decoding: digits, as: UTF8.self)) ?? .max) <= 65_535
  }

  private static func isAlpha(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private static func isHex(_ byte: UInt8) -> Bool {
    isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
  }
}
