import AuthCrypto
import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// How `authflow serve` limits requests: GoTrue's budgets (`conf/configuration.go`), and how
/// it tells clients apart (`performRateLimiting` in `internal/api/middleware.go`).
struct RequestLimits: Equatable, Sendable {
  /// The header whose first comma-separated value names the client (`RATE_LIMIT_HEADER`,
  /// such as `X-Forwarded-For` behind a proxy); `nil` for none.
  var header: String?
  /// Whether a valid IP address in `Sb-Forwarded-For` names the client before the header does
  /// (`SECURITY_SB_FORWARDED_FOR_ENABLED`); only for a proxy that sets it.
  var trustsForwardedFor = false
  /// Whether, with no header configured, the connection's address names the client. GoTrue
  /// limits nothing then; serve does this when it listens beyond loopback, where clients are
  /// other machines and the address tells them apart.
  var byPeerAddress = false
  /// `--no-rate-limits`: nothing is limited.
  var isOff = false
  /// `RATE_LIMIT_OTP`: each emailing route's requests per 5 minutes per client.
  var otp: Double = 30
  /// `RATE_LIMIT_ANONYMOUS_USERS`: anonymous sign-ins per hour per client.
  var anonymousUsers: Double = 30
  /// `RATE_LIMIT_TOKEN_REFRESH`: sign-ins and refreshes per 5 minutes per client.
  var tokenRefresh: Double = 150
  /// `RATE_LIMIT_VERIFY`: `/verify` requests per 5 minutes per client.
  var verify: Double = 30
  /// `RATE_LIMIT_WEB3`: Web3 sign-ins per 5 minutes per client.
  var web3: Double = 30
  /// `MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY`: challenges, and verifications, per minute per
  /// client.
  var mfa: Double = 15

  /// The buckets of `limit`, as `apilimiter.New` makes them: most allow bursts of 30 whatever
  /// the rate, and anonymous sign-ins a burst of the whole hour's rate.
  func shape(_ limit: RequestLimit) -> BucketShape {
    let fiveMinutes = 300.0
    let hour = 3_600.0
    switch limit {
    case .signup, .recover, .resend, .magicLink, .otp, .updateUser:
      return BucketShape(perSecond: otp / fiveMinutes, burst: 30, lifetime: hour)
    case .anonymousSignIn:
      return BucketShape(
        perSecond: anonymousUsers / hour, burst: anonymousUsers.rounded(.towardZero),
        lifetime: hour)
    case .token:
      return BucketShape(perSecond: tokenRefresh / fiveMinutes, burst: 30, lifetime: hour)
    case .verify:
      return BucketShape(perSecond: verify / fiveMinutes, burst: 30, lifetime: hour)
    case .web3:
      return BucketShape(perSecond: web3 / fiveMinutes, burst: 30, lifetime: hour)
    case .factorChallenge, .factorVerify:
      return BucketShape(perSecond: mfa / 60, burst: 30, lifetime: 60)
    }
  }

  /// The client `request` is counted for, or `nil` when it is not limited: a valid
  /// `Sb-Forwarded-For` address when trusted; else the first value of the configured header
  /// (none, or an empty one, is not limited); else, with none configured, the connection's
  /// address when ``byPeerAddress``.
  func key(for request: HTTPRequest) -> String? {
    guard !isOff else { return nil }
    if trustsForwardedFor, let forwarded = request.header("Sb-Forwarded-For"),
      let address = Self.normalizedAddress(Self.firstValue(of: forwarded))
    {
      return address
    }
    if let header {
      let value = Self.firstValue(of: request.header(header) ?? "")
      return value.isEmpty ? nil : Self.bounded(value)
    }
    return byPeerAddress ? Self.host(ofPeer: request.peer) : nil
  }

  /// The longest key kept as it is; an address is at most 45 bytes.
  static let longestKey = 64

  /// `key`, or for a longer one its SHA-256: a header's value may be kilobytes long, and the
  /// limiter holds thousands of keys.
  static func bounded(_ key: String) -> String {
    key.utf8.count <= longestKey ? key : "sha256:" + SHA256.hash(key).hexString
  }

  /// The first comma-separated value, without the spaces around it.
  static func firstValue(of text: String) -> String {
    let first =
      text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
      .first ?? []
    let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let start = first.firstIndex(where: { !isBlank($0) }),
      let end = first.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return String(decoding: first[start...end], as: UTF8.self)
  }

  /// `text` as Go's `net.ParseIP(text).String()` writes it (`::ffff:1.2.3.4` is `1.2.3.4`),
  /// or `nil` when it is no IP address.
  static func normalizedAddress(_ text: String) -> String? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      return withUnsafePointer(to: v4) { format(AF_INET, $0) }
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
    let bytes = withUnsafeBytes(of: v6) { Array($0) }
    if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
      return bytes[12...].map { String($0) }.joined(separator: ".")
    }
    return withUnsafePointer(to: v6) { format(AF_INET6, $0) }
  }

  /// The text of the address of `family` at `address`.
  private static func format(_ family: Int32, _ address: UnsafeRawPointer) -> String? {
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    guard inet_ntop(family, address, &text, socklen_t(text.count)) != nil else { return nil }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The address of a peer written `127.0.0.1:54321` or `[::1]:54321`, without the port.
  static func host(ofPeer peer: String) -> String {
    if peer.hasPrefix("["), let close = peer.firstIndex(of: "]") {
      return String(peer[peer.index(after: peer.startIndex)..<close])
    }
    guard let colon = peer.lastIndex(of: ":") else { return peer }
    return String(peer[..<colon])
  }
}
