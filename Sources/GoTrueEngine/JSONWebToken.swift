import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// JSON Web Tokens (RFC 7519), signed and checked with libcrypto: HMAC with the secret, or
/// GoTrue's asymmetric keys (``TokenKeys``).
///
/// Checking is strict, stricter than GoTrue's: only the valid methods (never `none`), the
/// signature checked with the key GoTrue's key function picks (HMAC compared in constant time)
/// before anything in the payload is believed; a header or payload naming a member twice is
/// refused (``StrictJSON``: Go would read the last where Foundation reads the first); then, at
/// `now`, `exp` is required and checked, `nbf` and `iat` too when present. Failures carry
/// golang-jwt's wording behind GoTrue's prefix.
package enum JSONWebToken {
  /// An HS256 token with `claims`, signed with `secret` and no `kid`.
  package static func sign(_ claims: [String: JSONValue], secret: [UInt8]) -> String {
    sign(claims, key: .hs256(secret: secret))
  }

  /// A token with `claims`, signed with `key` under its header.
  package static func sign(_ claims: [String: JSONValue], key: SigningKey) -> String {
    let signingInput = key.header + "." + Base64URL.encode(JSONValue.object(claims).jsonBytes)
    let signature = key.algorithm.sign(Array(signingInput.utf8), with: key.key)
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// The length of the token ``sign(_:key:)`` makes of `claims` with `key` (by default the
  /// HS256 key of a secret), without signing it.
  package static func length(
    ofTokenWith claims: [String: JSONValue], key: SigningKey = .hs256(secret: [])
  ) -> Int {
    // Unpadded base64url: four characters per three bytes, rounded up.
    func encoded(_ count: Int) -> Int { (count * 4 + 2) / 3 }
    let payload = JSONValue.object(claims).jsonBytes.count
    return key.header.utf8.count + 1 + encoded(payload) + 1 + encoded(key.signatureByteCount)
  }

  /// The claims of `token` if it is an HS256 token signed with `secret` that is valid at `now`
  /// (Unix seconds; `nil` leaves the time claims to the caller); otherwise 403 `bad_jwt`.
  package static func verify(_ token: String, secret: [UInt8], now: Int?) throws(GoTrueAPIError)
    -> [String: JSONValue]
  {
    try verify(token, keys: TokenKeys(secret: secret), now: now)
  }

  /// The claims of `token` if it is signed with one of `keys` by one of their valid methods
  /// and valid at `now` (Unix seconds; `nil` leaves the time claims to the caller);
  /// otherwise 403 `bad_jwt`. `exp` is required unless `expiryRequired` is false (an admin
  /// API key, which GoTrue and the keys teams mint for their tests take without one); when
  /// present it is always enforced.
  package static func verify(
    _ token: String, keys: TokenKeys, now: Int?, expiryRequired: Bool = true
  ) throws(GoTrueAPIError) -> [String: JSONValue] {
    do throws(JWTRejection) {
      return try check(token, keys: keys, now: now, expiryRequired: expiryRequired)
    } catch {
      throw GoTrueAPIError(
        status: 403, code: .badJWT,
        message: "invalid JWT: unable to parse or verify signature, \(error.reason)")
    }
  }

  private static func check(_ token: String, keys: TokenKeys, now: Int?, expiryRequired: Bool)
    throws(JWTRejection) -> [String: JSONValue]
  {
    if let claims = keys.verified.claims(of: token) {
      if let now { try checkTimes(claims, now: Double(now), expiryRequired: expiryRequired) }
      return claims
    }
    let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw .malformed("token contains an invalid number of segments")
    }
    let (algorithm, key) = try method(header: parts[0], keys: keys)
    guard let signature = Base64URL.decode(Substring(parts[2])) else {
      throw .malformed("could not base64 decode signature")
    }
    let signingInput = Array(token.utf8.prefix(parts[0].count + 1 + parts[1].count))
    if let problem = algorithm.problem(verifying: signature, of: signingInput, with: key) {
      throw JWTRejection("token signature is invalid: " + problem)
    }
    guard let payload = Base64URL.decode(Substring(parts[1])),
      StrictJSON.problem(in: payload) == nil,
      let claims = JSONValue.object(parsing: payload)
    else { throw .malformed("could not JSON decode claim") }
    keys.verified.remember(token, claims)
    if let now { try checkTimes(claims, now: Double(now), expiryRequired: expiryRequired) }
    return claims
  }

  /// The method and key of a token with `header`: golang-jwt's checks of `alg` (known, then
  /// valid), then GoTrue's key function. The header the engine signs with needs no decoding.
  private static func method(header: Substring.UTF8View, keys: TokenKeys) throws(JWTRejection)
    -> (JWTAlgorithm, VerificationKey)
  {
    if header.elementsEqual(keys.signing.headerBytes) {
      let algorithm = keys.signing.algorithm
      guard keys.validMethods.contains(algorithm) else {
        throw JWTRejection(
          "token signature is invalid: signing method \(algorithm.rawValue) is invalid")
      }
      return (algorithm, try keys.ownKey.get())
    }
    guard let bytes = Base64URL.decode(Substring(header)) else {
      throw .malformed("could not base64 decode header")
    }
    guard StrictJSON.problem(in: bytes) == nil,
      let fields = JSONValue.object(parsing: bytes)
    else { throw .malformed("could not JSON decode header") }
    guard let name = fields["alg"]?.stringValue else {
      throw JWTRejection("token is unverifiable: signing method (alg) is unspecified")
    }
    guard JWTAlgorithm.knownNames.contains(name) else {
      throw JWTRejection("token is unverifiable: signing method (alg) is unavailable")
    }
    guard let algorithm = JWTAlgorithm(rawValue: name), keys.validMethods.contains(algorithm)
    else { throw JWTRejection("token signature is invalid: signing method \(name) is invalid") }
    return (algorithm, try keys.key(kid: fields["kid"], algorithm: algorithm).get())
  }

  /// golang-jwt's checks of `exp` (required here unless `expiryRequired` is false), `nbf` and
  /// `iat`, with no leeway.
  private static func checkTimes(_ claims: [String: JSONValue], now: Double, expiryRequired: Bool)
    throws(JWTRejection)
  {
    func seconds(_ name: String) throws(JWTRejection) -> Double? {
      guard let value = claims[name] else { return nil }
      guard let seconds = value.numberValue, seconds.isFinite else {
        throw .malformed("invalid type for claim")
      }
      return seconds
    }
    if let expiry = try seconds("exp") {
      guard now < expiry else { throw JWTRejection("token has invalid claims: token is expired") }
    } else if expiryRequired {
      throw JWTRejection(
        "token has invalid claims: token is missing required claim: exp claim is required")
    }
    if let notBefore = try seconds("nbf"), now < notBefore {
      throw JWTRejection("token has invalid claims: token is not valid yet")
    }
    if let issuedAt = try seconds("iat"), now < issuedAt {
      throw JWTRejection("token has invalid claims: token used before issued")
    }
  }

  /// Whether `claims` are of a token the Firebase surface issued (its issuer, or Firebase's
  /// own claim): GoTrue's routes never accept one, though both are signed with one secret.
  package static func isFirebaseToken(_ claims: [String: JSONValue]) -> Bool {
    claims["firebase"] != nil
      || claims["iss"]?.stringValue?.hasPrefix("https://securetoken.google.com/") == true
  }
}

/// Why a token is refused, in golang-jwt's words (`token is malformed: …`, `token signature is
/// invalid: …`), which GoTrue puts behind its own prefix.
struct JWTRejection: Error {
  /// The reason.
  let reason: String

  init(_ reason: String) { self.reason = reason }

  /// A token golang-jwt cannot read: `token is malformed: <detail>`.
  static func malformed(_ detail: String) -> JWTRejection {
    JWTRejection("token is malformed: " + detail)
  }
}

/// What the engine reads from a verified access token.
package struct AccessClaims: Sendable {
  /// The user's id (`sub`).
  package var userID: String
  /// The session the token belongs to (`session_id`), when it names one.
  package var sessionID: String?
  /// Whether the token says its user signed in anonymously (`is_anonymous`).
  package var isAnonymous = false

  /// GoTrue's audience (its `JWT_AUD` default), the `aud` of every access token it issues.
  package static let audience = "authenticated"

  /// Throws 403 `unexpected_audience` for a token of another audience, checked where GoTrue
  /// checks it: after the user and session are found.
  package func checkAudience() throws(GoTrueAPIError) {
    guard isForGoTrue else {
      throw GoTrueAPIError(
        status: 403, code: .unexpectedAudience,
        message: "Token audience doesn't match request audience")
    }
  }

  /// Whether the token is for GoTrue's audience (`authenticated`) and not one the Firebase
  /// surface issued: each surface accepts only the tokens it issues (``checkAudience()``).
  package var isForGoTrue: Bool

  /// Reads the claims a user route needs, with GoTrue's answers when they are missing.
  package init(_ claims: [String: JSONValue]) throws(GoTrueAPIError) {
    let audience: String? =
      switch claims["aud"] {
      case .string(let audience)?: audience
      case .array(let audiences)?: audiences.first?.stringValue
      default: nil
      }
    isForGoTrue = audience == Self.audience && !JSONWebToken.isFirebaseToken(claims)
    guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else {
      throw GoTrueAPIError(status: 403, code: .badJWT, message: "invalid claim: missing sub claim")
    }
    guard UUIDText.isValid(sub) else {
      throw GoTrueAPIError(
        status: 400, code: .badJWT, message: "invalid claim: sub claim must be a UUID")
    }
    userID = sub.lowercased()
    sessionID = claims["session_id"]?.stringValue
    isAnonymous = claims["is_anonymous"] == .bool(true)
  }
}

/// UUIDs as text, the ids of users and sessions.
package enum UUIDText {
  /// A UUID's worth of text, where only the length matters.
  package static let placeholder = "00000000-0000-0000-0000-000000000000"

  /// Whether `text` is a UUID in the 8-4-4-4-12 hexadecimal form.
  package static func isValid(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard Self.isHexDigit(byte) else { return false }
      }
    }
    return true
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
  }
}
