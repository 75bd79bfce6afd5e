import AuthCrypto
import GoTrue
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A custom token as the emulator reads one (`signInWithCustomToken`): plain JSON (a token that
/// starts with `{`, the emulator's shortcut for tests), or a JWT decoded without checking its
/// signature: the Admin SDKs make unsigned ones (`alg: none`) in emulator mode, and a token
/// signed by a service account cannot be checked here. `iat` and `exp` are not checked either,
/// so a test may reuse one token.
///
/// Since whoever makes one chooses the user, the server takes custom tokens only where it
/// takes `Bearer owner` (the route's check, ``LocalTrust`` on the HTTP side).
package struct FirebaseCustomToken: Equatable, Sendable {
  /// The user's id (`uid`, else `user_id`; numbers and booleans as their text).
  package var uid: String
  /// The claims the session's ID tokens carry (`claims`), checked as custom claims.
  package var claims: [String: JSONValue]

  /// The audience a JWT custom token must name.
  package static let audience =
    "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

  /// Reads `token` in the emulator's order of answers: `INVALID_CUSTOM_TOKEN` (not JSON, not a
  /// JWT, another audience), `MISSING_IDENTIFIER`, then the claims' `INVALID_CLAIMS` and
  /// `FORBIDDEN_CLAIM : name`.
  package init(parsing token: String) throws(IdentityToolkitError) {
    let payload: [String: JSONValue]
    if token.hasPrefix("{") {
      guard let object = Self.object(Array(token.utf8)) else {
        throw .badRequest(
          .invalidCustomToken,
          "((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
      }
      payload = object
    } else {
      guard let decoded = Self.decodedJWT(token) else {
        throw .badRequest(.invalidCustomToken, "Invalid assertion format")
      }
      guard decoded["aud"] == .string(Self.audience) else {
        throw .badRequest(
          .invalidCustomToken,
          "((Invalid aud (audience): \(Self.javaScriptText(decoded["aud"])) Note: Firebase ID "
            + "Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
      }
      payload = decoded
    }
    guard let uid = Self.primitiveText(payload["uid"]) ?? Self.primitiveText(payload["user_id"]),
      !uid.isEmpty
    else { throw .badRequest(.missingIdentifier) }
    self.uid = uid
    claims =
      try payload["claims"].map { value throws(IdentityToolkitError) in
        try FirebaseCustomClaims.checked(value)
      } ?? [:]
  }

  /// The payload of a JWT (`header.payload.signature`, the signature possibly empty, the header
  /// a JSON object), as `jsonwebtoken`'s `decode` reads it; a payload that is no JSON object is
  /// read as an empty one (its `aud` is then missing).
  private static func decodedJWT(_ token: String) -> [String: JSONValue]? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty,
      parts.allSatisfy({ $0.utf8.allSatisfy(isBase64URL) }),
      let header = Base64URL.decode(parts[0]), object(header) != nil,
      let payload = Base64URL.decode(parts[1])
    else { return nil }
    return object(payload) ?? [:]
  }

  private static func isBase64URL(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  private static func object(_ bytes: [UInt8]) -> [String: JSONValue]? {
    guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    else { return nil }
    return object
  }

  /// A string as it is, a number or boolean as JavaScript writes it, anything else `nil`
  /// (the emulator's `coercePrimitiveToString`).
  private static func primitiveText(_ value: JSONValue?) -> String? {
    switch value {
    case .string(let text)?: text
    case .bool(let flag)?: flag ? "true" : "false"
    case .number(let number)?: numberText(number)
    default: nil
    }
  }

  /// `value` as a JavaScript template string writes it (`${value}`), for the message.
  private static func javaScriptText(_ value: JSONValue?) -> String {
    switch value {
    case nil: "undefined"
    case .null?: "null"
    case .array(let elements)?:
      elements.map { $0 == .null ? "" : javaScriptText($0) }.joined(separator: ",")
    case .object?: "[object Object]"
    default: primitiveText(value) ?? ""
    }
  }

  private static func numberText(_ number: Double) -> String {
    number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
  }
}
