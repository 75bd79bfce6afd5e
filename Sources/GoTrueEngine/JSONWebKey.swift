import AuthCrypto
import GoTrue

/// One key of GoTrue's `JWT_KEYS`: a JWK (RFC 7517, 7518 §6) read as GoTrue reads it with
/// lestrrat-go/jwx, into a key libcrypto holds.
///
/// The key types are GoTrue's signing keys': RSA (RS256, RS512), EC (ES256 on P-256, ES512
/// on P-521), OKP (EdDSA on Ed25519) and oct (HS256). A key without its private part only
/// verifies. What jwx would read and GoTrue could not then sign or check with (no `alg`, an
/// `alg` its key type cannot do, a key whose halves do not match, AWS KMS references) is
/// refused here, with what would be right.
package struct JSONWebKey: Sendable {
  /// Its `kid`, empty when it has none.
  package let id: String
  /// Its `alg`.
  package let algorithm: JWTAlgorithm
  /// What it signs (with its private part) and verifies with.
  package let material: VerificationKey
  /// Whether `key_ops` lists `sign`: GoTrue signs with the one key that does.
  package let signs: Bool
  /// The JWK as given, for comparing configurations.
  let members: [String: JSONValue]

  /// The members only a private key has, by key type (jwx's `PublicKey` drops these).
  private static let privateMembers: [String: Set<String>] = [
    "RSA": ["d", "p", "q", "dp", "dq", "qi"], "EC": ["d"], "OKP": ["d"], "oct": ["k"],
  ]
  /// The operations RFC 7517 §4.3 names (jwx refuses others).
  private static let operations: Set<String> = [
    "sign", "verify", "encrypt", "decrypt", "wrapKey", "unwrapKey", "deriveKey", "deriveBits",
  ]

  /// Reads the JWK `value`; throws what is wrong with it, for a message.
  package init(_ value: JSONValue) throws(Problem) {
    guard case .object(let members) = value else { throw Problem("is not a JSON object") }
    self.members = members
    switch members["kid"] {
    case nil: id = ""
    case .string(let kid)?: id = kid
    default: throw Problem("has a \"kid\" that is not a string")
    }
    guard let type = members["kty"]?.stringValue else {
      throw Problem("has no \"kty\"; give RSA, EC, OKP or oct")
    }
    guard Self.privateMembers[type] != nil else {
      throw Problem("has \"kty\" \"\(type.prefix(20))\"; GoTrue's keys are RSA, EC, OKP or oct")
    }
    if members["aws:kms:arn"] != nil {
      throw Problem("names an AWS KMS key, which authflow cannot use; give the key's own numbers")
    }
    let operations = try Self.operations(members["key_ops"])
    signs = operations.contains("sign")
    algorithm = try Self.algorithm(members["alg"], type: type)
    material = try KeyMaterial.key(members, type: type, algorithm: algorithm)
    if signs, case .asymmetric(let key) = material, !key.isPrivate {
      throw Problem("lists \"sign\" in key_ops but has no private part (\"d\")")
    }
  }

  /// The public JWK GoTrue publishes for it: its members but the private ones, with
  /// `use` `sig` and `key_ops` `["verify"]`; `nil` for an `oct` key, whose key is secret.
  package var publicJWK: [String: JSONValue]? {
    guard case .asymmetric = material, let type = members["kty"]?.stringValue else { return nil }
    var published = members.filter { !(Self.privateMembers[type] ?? []).contains($0.key) }
    published["use"] = .string("sig")
    published["key_ops"] = .array([.string("verify")])
    return published
  }

  /// `key_ops`: absent, or an array of RFC 7517's operations.
  private static func operations(_ value: JSONValue?) throws(Problem) -> [String] {
    guard let value else { return [] }
    guard case .array(let items) = value else {
      throw Problem("has a \"key_ops\" that is not an array; give [\"sign\",\"verify\"]")
    }
    var names: [String] = []
    for item in items {
      guard let name = item.stringValue, Self.operations.contains(name) else {
        throw Problem(
          "has a \"key_ops\" entry that is not an operation; give \"sign\" and/or \"verify\"")
      }
      names.append(name)
    }
    return names
  }

  /// `alg`, which GoTrue signs with and which must suit the key type.
  private static func algorithm(_ value: JSONValue?, type: String) throws(Problem) -> JWTAlgorithm {
    let allowed: [JWTAlgorithm] =
      switch type {
      case "RSA": [.rs256, .rs512]
      case "EC": [.es256, .es512]
      case "OKP": [.edDSA]
      default: [.hs256]
      }
    let names = allowed.map(\.rawValue).joined(separator: " or ")
    guard let name = value?.stringValue else {
      throw Problem("has no \"alg\"; GoTrue signs with the key's alg: give \(names)")
    }
    guard let algorithm = JWTAlgorithm(rawValue: name), allowed.contains(algorithm) else {
      throw Problem("has \"alg\" \"\(name.prefix(20))\"; an \(type) key takes \(names)")
    }
    return algorithm
  }

  /// What is wrong with a key.
  package struct Problem: Error, Equatable, Sendable {
    /// The reason, worded to follow "key N".
    package var reason: String

    init(_ reason: String) { self.reason = reason }
  }
}

extension JSONWebKey: Equatable {
  /// Keys are the same when their JWKs are.
  package static func == (lhs: JSONWebKey, rhs: JSONWebKey) -> Bool {
    lhs.members == rhs.members
  }
}
