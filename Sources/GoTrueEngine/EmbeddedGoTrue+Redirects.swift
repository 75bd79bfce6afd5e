import GoTrue

/// Where the engine's links may send a user: GoTrue's `IsRedirectURLValid`
/// (`utilities/request.go`), behind the reading of ``BrowserURL``.
extension EmbeddedGoTrue {
  /// Where a link may send the user: `redirectTo` when ``isRedirectAllowed(_:)``, else the
  /// site URL.
  package func allowedRedirect(_ redirectTo: String?) -> String {
    guard let redirectTo, isRedirectAllowed(redirectTo) else { return configuration.siteURL }
    return redirectTo
  }

  /// Whether GoTrue would send a user to `text`, judged as a browser reads it.
  ///
  /// First the URL must be one every reader agrees on (``BrowserURL``): anything a browser could
  /// read as another host is refused, as is text no header may carry (CR, LF), before any code
  /// is spent. Then, as GoTrue: the site's scheme, host and port (any port on a loopback host,
  /// as RFC 8252 asks for native apps); a host of digits never; an IP address only when it is a
  /// loopback one (held to http(s) here, where GoTrue takes any scheme), whatever the allow
  /// list says; for http(s), a host that starts and ends with a letter or digit; and then the
  /// allow list (``EngineConfiguration/redirectAllowList``), each pattern matched against the
  /// URL as written, without its fragment: an app's own scheme (`myapp://auth/callback`) is
  /// allowed only there.
  package func isRedirectAllowed(_ text: String) -> Bool {
    guard let target = BrowserURL(text) else { return false }
    if let site = BrowserURL(configuration.siteURL), target.scheme == site.scheme,
      target.host == site.host, target.port == site.port || target.isLoopback
    {
      return true
    }
    if target.host.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
      return false
    }
    if target.isIPAddress { return target.isLoopbackAddress && target.isHTTP }
    if target.isHTTP, !Self.isRegularHostname(target.host) { return false }
    let withoutFragment = text.prefix { $0 != "#" }
    return configuration.redirectAllowList.contains { $0.matches(withoutFragment) }
  }

  /// GoTrue's `regularHostname`: starts and ends with a letter or digit (``BrowserURL`` has
  /// already held the rest to letters, digits, `-` and `.`).
  private static func isRegularHostname(_ host: String) -> Bool {
    let isAlphanumeric = { (byte: UInt8) in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
    guard let first = host.utf8.first, let last = host.utf8.last else { return false }
    return isAlphanumeric(first) && isAlphanumeric(last)
  }
}
