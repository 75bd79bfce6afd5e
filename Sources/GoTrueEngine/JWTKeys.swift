import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's `JWT_KEYS`: a JSON array of private JWKs (`conf/jwk.go` `JwtKeysDecoder`), each
/// found by its `kid`, exactly one of which lists `sign` in `key_ops` and signs the tokens.
///
/// Read as GoTrue reads it, and refused where GoTrue refuses to start (no signing key, more
/// than one) or would fail later (see ``JSONWebKey``); two keys with one `kid`, which GoTrue
/// keeps only the last of, are refused too. An empty array is no keys, as to GoTrue.
package struct JWTKeys: Equatable, Sendable {
  /// The keys, in the array's order.
  package let keys: [JSONWebKey]
  /// The key tokens are signed with.
  package let signing: JSONWebKey

  /// The keys of `text`, or `nil` for an empty array.
  package static func parse(_ text: [UInt8]) throws(Problem) -> JWTKeys? {
    if let problem = StrictJSON.problem(in: text) {
      throw Problem("is not JSON: \(problem.message)")
    }
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text)) else {
      throw Problem("is not JSON")
    }
    guard case .array(let items) = value else {
      if case .object(let members) = value, members["keys"] != nil {
        throw Problem(
          "is a JWK set ({\"keys\":[…]}); GoTrue reads the array alone: give the \"keys\" array")
      }
      throw Problem("is not a JSON array of JWKs ([{\"kty\":…}, …])")
    }
    guard !items.isEmpty else { return nil }
    var keys: [JSONWebKey] = []
    for (index, item) in items.enumerated() {
      let key: JSONWebKey
      do {
        key = try JSONWebKey(item)
      } catch {
        throw Problem("key \(Self.name(index, item.objectValue?["kid"])) \(error.reason)")
      }
      if let earlier = keys.firstIndex(where: { $0.id == key.id }) {
        throw Problem(
          "keys \(earlier + 1) and \(index + 1) both have \(Self.kidText(key.id)); "
            + "give each key its own kid")
      }
      keys.append(key)
    }
    let signers = keys.filter(\.signs)
    guard let signing = signers.first else {
      throw Problem(
        "has no key that lists \"sign\" in key_ops; give the key to sign with "
          + "\"key_ops\":[\"sign\",\"verify\"]")
    }
    guard signers.count == 1 else {
      throw Problem(
        "has \(signers.count) keys that list \"sign\" in key_ops (\(Self.kidText(signers[0].id)), "
          + "\(Self.kidText(signers[1].id))); GoTrue signs with one: give the others "
          + "\"key_ops\":[\"verify\"]")
    }
    return JWTKeys(keys: keys, signing: signing)
  }

  /// The algorithms of the keys: GoTrue's default `JWT_VALID_METHODS`.
  package var algorithms: JWTAlgorithmSet { JWTAlgorithmSet(keys.map(\.algorithm)) }

  private static func name(_ index: Int, _ kid: JSONValue?) -> String {
    guard let kid = kid?.stringValue else { return "\(index + 1)" }
    return "\(index + 1) (\(kidText(kid)))"
  }

  private static func kidText(_ kid: String) -> String {
    kid.isEmpty ? "no kid" : "kid \"\(kid.prefix(40))\""
  }

  /// What is wrong with a `JWT_KEYS` text: one line, worded to follow what names the keys
  /// (`--jwt-keys …`).
  package struct Problem: Error, Equatable, Sendable {
    /// What is wrong and what would be right; never a key's numbers.
    package var message: String

    init(_ message: String) { self.message = message }
  }
}
