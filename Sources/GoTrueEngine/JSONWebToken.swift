import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// HS256 JSON Web Tokens (RFC 7519), signed and checked with libcrypto's HMAC.
///
/// Checking is strict, stricter than GoTrue's: only HS256 (never `none`, never another
/// algorithm), the signature compared in constant time before anything in the token is
/// believed; a header or payload naming a member twice is refused (``StrictJSON``: Go would
/// read the last where Foundation reads the first); then, at `now`, `exp` is required and
/// checked, `nbf` and `iat` too when present. Failures carry golang-jwt's wording behind
/// GoTrue's prefix.
package enum JSONWebToken {
  private static let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
  private static let headerBytes = Array(header.utf8)

  /// A token with `claims`.
  package static func sign(_ claims: [String: JSONValue], secret: [UInt8]) -> String {
    let signingInput = header + "." + Base64URL.encode(JSONValue.object(claims).jsonBytes)
    let signature = HMAC.sha256(key: secret, message: Array(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// The length of the token ``sign(_:secret:)`` makes of `claims`, without signing it.
  package static func length(ofTokenWith claims: [String: JSONValue]) -> Int {
    let payload = JSONValue.object(claims).jsonBytes.count
    // Unpadded base64url: four characters per three bytes, rounded up; an HMAC-SHA-256
    // signature is 32 bytes (43 characters).
    return header.utf8.count + 1 + (payload * 4 + 2) / 3 + 1 + 43
  }

  /// The claims of `token` if it is an HS256 token signed with `secret` that is valid at `now`
  /// (Unix seconds; `nil` leaves the time claims to the caller); otherwise 403 `bad_jwt`.
  package static func verify(_ token: String, secret: [UInt8], now: Int?) throws(GoTrueAPIError)
    -> [String: JSONValue]
  {
    let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw rejected("token is malformed: token contains an invalid number of segments")
    }
    // The header this engine signs with needs no decoding; any other is read for its `alg`.
    if !parts[0].elementsEqual(Self.headerBytes) {
      guard let headerBytes = Base64URL.decode(Substring(parts[0])) else {
        throw rejected("token is malformed: could not base64 decode header")
      }
      guard StrictJSON.problem(in: headerBytes) == nil,
        let header = try? JSONDecoder().decode([String: JSONValue].self, from: Data(headerBytes))
      else { throw rejected("token is malformed: could not JSON decode header") }
      let algorithm = header["alg"]?.stringValue ?? ""
      guard algorithm == "HS256" else {
        throw rejected("token signature is invalid: signing method \(algorithm) is invalid")
      }
    }
    guard let signature = Base64URL.decode(Substring(parts[2])) else {
      throw rejected("token is malformed: could not base64 decode signature")
    }
    let signingInput = Array(token.utf8.prefix(parts[0].count + 1 + parts[1].count))
    guard constantTimeEquals(HMAC.sha256(key: secret, message: signingInput), signature) else {
      throw rejected("token signature is invalid: signature is invalid")
    }
    guard let payload = Base64URL.decode(Substring(parts[1])),
      StrictJSON.problem(in: payload) == nil,
      let claims = try? JSONDecoder().decode([String: JSONValue].self, from: Data(payload))
    else { throw rejected("token is malformed: could not JSON decode claim") }
    if let now { try checkTimes(claims, now: Double(now)) }
    return claims
  }

  /// golang-jwt's checks of `exp` (required here), `nbf` and `iat`, with no leeway.
  private static func checkTimes(_ claims: [String: JSONValue], now: Double)
    throws(GoTrueAPIError)
  {
    func seconds(_ name: String) throws(GoTrueAPIError) -> Double? {
      guard let value = claims[name] else { return nil }
      guard let seconds = value.numberValue, seconds.isFinite else {
        throw rejected("token is malformed: invalid type for claim")
      }
      return seconds
    }
    guard let expiry = try seconds("exp") else {
      throw rejected(
        "token has invalid claims: token is missing required claim: exp claim is required")
    }
    guard now < expiry else { throw rejected("token has invalid claims: token is expired") }
    if let notBefore = try seconds("nbf"), now < notBefore {
      throw rejected("token has invalid claims: token is not valid yet")
    }
    if let issuedAt = try seconds("iat"), now < issuedAt {
      throw rejected("token has invalid claims: token used before issued")
    }
  }

  private static func rejected(_ reason: String) -> GoTrueAPIError {
    GoTrueAPIError(
      status: 403, code: .badJWT,
      message: "invalid JWT: unable to parse or verify signature, \(reason)")
  }

  /// Whether `claims` are of a token the Firebase surface issued (its issuer, or Firebase's
  /// own claim): GoTrue's routes never accept one, though both are signed with one secret.
  package static func isFirebaseToken(_ claims: [String: JSONValue]) -> Bool {
    claims["firebase"] != nil
      || claims["iss"]?.stringValue?.hasPrefix("https://securetoken.google.com/") == true
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
