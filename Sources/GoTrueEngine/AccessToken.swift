import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The claims of a GoTrue access token.
struct AccessTokenClaims: Codable, Equatable {
  var aud = "authenticated"
  var exp: Int
  var iat: Int
  var sub: String
  var email: String
  var role = "authenticated"
  var aal = "aal1"
  var sessionID: String
  var isAnonymous = false

  enum CodingKeys: String, CodingKey {
    case aud, exp, iat, sub, email, role, aal
    case sessionID = "session_id"
    case isAnonymous = "is_anonymous"
  }
}

/// HS256 JSON Web Tokens (RFC 7519) signed with the store's secret through libcrypto's HMAC.
enum AccessToken {
  private static let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

  static func sign(_ claims: AccessTokenClaims, secret: [UInt8]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // Encoding these plain fields cannot fail.
    let payload = Base64URL.encode((try? encoder.encode(claims)) ?? Data())
    let signingInput = header + "." + payload
    let signature = HMAC.sha256(key: secret, message: Array(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// The claims of `token` if its signature is right and it has not expired at `now`.
  static func verify(_ token: String, secret: [UInt8], now: Int) throws(GoTrueAPIError)
    -> AccessTokenClaims
  {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let signature = Base64URL.decode(parts[2]) else {
      throw badJWT("invalid JWT: unable to parse or verify signature, token is malformed")
    }
    let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    guard parts[0] == header[...],
      constantTimeEquals(HMAC.sha256(key: secret, message: signingInput), signature)
    else {
      throw badJWT("invalid JWT: unable to parse or verify signature, signature is invalid")
    }
    guard let payload = Base64URL.decode(parts[1]),
      let claims = try? JSONDecoder().decode(AccessTokenClaims.self, from: Data(payload))
    else { throw badJWT("invalid JWT: unable to parse claims") }
    guard claims.exp > now else {
      throw badJWT("invalid JWT: unable to parse or verify signature, token has expired")
    }
    return claims
  }

  private static func badJWT(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 403, code: .badJWT, message: message)
  }
}
