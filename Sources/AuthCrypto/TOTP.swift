/// Time-based one-time passwords (RFC 6238): the HOTP code (RFC 4226) of the number of periods
/// since the Unix epoch, with HMAC-SHA1 from libcrypto. The defaults are what authenticator apps
/// and GoTrue use: 6 digits, 30-second periods.
public struct TOTP: Sendable {
  /// The shared secret.
  public let secret: [UInt8]
  /// How many digits a code has (6 to 9).
  public let digits: Int
  /// Seconds per time step.
  public let period: Int64

  /// A generator for `secret`.
  public init(secret: [UInt8], digits: Int = 6, period: Int64 = 30) {
    precondition((6...9).contains(digits) && period > 0)
    self.secret = secret
    self.digits = digits
    self.period = period
  }

  /// The time step `unixSeconds` falls in: ⌊t / period⌋.
  public func step(at unixSeconds: Int64) -> Int64 {
    let (quotient, remainder) = unixSeconds.quotientAndRemainder(dividingBy: period)
    return remainder < 0 ? quotient - 1 : quotient
  }

  /// The code at `unixSeconds`.
  public func code(at unixSeconds: Int64) -> String {
    code(forStep: step(at: unixSeconds))
  }

  /// The code of time step `step`: RFC 4226's dynamic truncation of HMAC-SHA1(secret, step).
  public func code(forStep step: Int64) -> String {
    let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
    let mac = HMAC.sha1(key: secret, message: counter)
    let offset = Int(mac[mac.count - 1] & 0x0F)
    let binary =
      (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
      | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
    var modulus: UInt32 = 1
    for _ in 0..<digits { modulus *= 10 }
    let text = String(binary % modulus)
    return String(repeating: "0", count: digits - text.count) + text
  }

  /// The step whose code `code` is, among the steps within `skew` of the one at `unixSeconds`
  /// and later than `usedStep` (RFC 6238 §5.2: a code accepted once is not accepted again);
  /// `nil` when there is none. Surrounding whitespace is ignored, as GoTrue's library ignores
  /// it; every candidate is computed and compared in constant time, whichever matches.
  public func matchingStep(
    of code: String, at unixSeconds: Int64, skew: Int64 = 1, after usedStep: Int64? = nil
  ) -> Int64? {
    let given = Array(code.trimmingSpaces.utf8)
    guard given.count == digits else { return nil }
    let now = step(at: unixSeconds)
    var found: Int64?
    for candidate in (now - skew)...(now + skew) where candidate >= 0 {
      let matches = constantTimeEquals(Array(self.code(forStep: candidate).utf8), given)
      if matches, candidate > (usedStep ?? -1) { found = max(found ?? candidate, candidate) }
    }
    return found
  }
}

extension String {
  /// The string without leading and trailing whitespace (Go's `strings.TrimSpace`).
  fileprivate var trimmingSpaces: Substring {
    let isSpace = { (character: Character) in character.isWhitespace }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return self[first...last]
  }
}
