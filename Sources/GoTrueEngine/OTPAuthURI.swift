/// The `otpauth://` URI of a TOTP key, byte for byte as GoTrue's library (pquerna/otp's
/// `totp.Generate`, through Go's `net/url`) writes it:
/// `otpauth://totp/<issuer>:<account>?algorithm=SHA1&digits=6&issuer=<issuer>&period=30&secret=<base32>`.
enum OTPAuthURI {
  /// The URI of a key with `secret` (base32) for `account` at `issuer`.
  static func totp(issuer: String, account: String, secret: String) -> String {
    let query = [
      ("algorithm", "SHA1"), ("digits", "6"), ("issuer", issuer), ("period", "30"),
      ("secret", secret),
    ]
    .map { escape($0.0, keeping: segmentReserved) + "=" + escape($0.1, keeping: segmentReserved) }
    .joined(separator: "&")
    let path = "/" + issuer + ":" + account
    return "otpauth://totp" + escape(path, keeping: pathReserved) + "?" + query
  }

  /// The reserved characters Go leaves as they are in a whole path (`encodePath`): all but `?`.
  private static let pathReserved = Set("$&+,/:;=@".utf8)
  /// The ones it leaves in a path segment (`url.PathEscape`, which pquerna/otp uses for query
  /// values so that a space is `%20`, not `+`).
  private static let segmentReserved = Set("$&+:=@".utf8)

  /// `text` with every byte but ASCII letters, digits, `-_.~` and `keeping` as `%XX`.
  private static func escape(_ text: String, keeping reserved: Set<UInt8>) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var output: [UInt8] = []
    for byte in text.utf8 {
      let unreserved =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || Set("-_.~".utf8).contains(byte)
      if unreserved || reserved.contains(byte) {
        output.append(byte)
      } else {
        output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The host (with its port) of `siteURL`, as Go's `url.ParseRequestURI(…).Host` gives it:
  /// GoTrue's default issuer. `nil` when the URL has no authority to take one from.
  static func host(ofSiteURL siteURL: String) -> String? {
    guard let colon = siteURL.firstIndex(of: ":"),
      siteURL[..<colon].first?.isLetter == true,
      siteURL[..<colon].allSatisfy({
        $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))
      })
    else { return nil }
    let rest = siteURL[siteURL.index(after: colon)...]
    guard rest.hasPrefix("//") else { return nil }
    let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" }
    if let at = authority.lastIndex(of: "@") {
      return String(authority[authority.index(after: at)...])
    }
    return String(authority)
  }
}
