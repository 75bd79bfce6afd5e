import GoTrue
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Custom claims, as the emulator checks them (`validateCustomClaims`): a JSON object that
/// names none of the claims an ID token reserves. An admin's `customAttributes` (kept with the
/// account) are its text, at most 1000 characters; a custom token's `claims` (kept with the
/// session) are the object itself.
package enum FirebaseCustomClaims {
  /// The names no custom claim may have, in the order the emulator checks them: the first one
  /// present is the one `FORBIDDEN_CLAIM : name` names.
  package static let reserved = [
    "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf",
    "auth_time", "firebase", "at_hash", "c_hash",
  ]

  /// The longest `customAttributes` text, in UTF-16 code units (JavaScript's `length`).
  package static let maximumLength = 1_000

  /// The claims of the text `serialized` (an admin's `customAttributes`): `CLAIMS_TOO_LARGE`
  /// over ``maximumLength``, `INVALID_CLAIMS` when it is not a JSON object, then
  /// `FORBIDDEN_CLAIM : name`.
  package static func parse(serialized: String) throws(IdentityToolkitError)
    -> [String: JSONValue]
  {
    guard serialized.utf16.count <= maximumLength else {
      throw .badRequest(.claimsTooLarge)
    }
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(serialized.utf8))
    else { throw .badRequest(.invalidClaims) }
    return try checked(value)
  }

  /// `value` as claims: `INVALID_CLAIMS` unless it is an object, `FORBIDDEN_CLAIM : name` when
  /// it names a reserved claim.
  package static func checked(_ value: JSONValue) throws(IdentityToolkitError)
    -> [String: JSONValue]
  {
    guard case .object(let claims) = value else { throw .badRequest(.invalidClaims) }
    if let name = reserved.first(where: { claims[$0] != nil }) {
      throw .badRequest(.forbiddenClaim, name)
    }
    return claims
  }

  /// The claims kept as `text` (a stored `customAttributes`, checked when it was set); none
  /// for no text or an empty one, as the emulator reads `customAttributes || "{}"`.
  static func stored(_ text: String?) -> [String: JSONValue] {
    guard let text, !text.isEmpty else { return [:] }
    return (try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))) ?? [:]
  }

  /// The text a session keeps a custom token's claims as; `nil` for none.
  static func serialized(_ claims: [String: JSONValue]) -> String? {
    claims.isEmpty ? nil : String(decoding: JSONValue.object(claims).jsonBytes, as: UTF8.self)
  }
}
