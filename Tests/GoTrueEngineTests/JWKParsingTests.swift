import AuthCrypto
import Foundation
import GoTrue
import Testing

@testable import GoTrueEngine

/// The test keys of Tests/Fixtures/jwk (made once with `openssl genpkey`), as JWK members.
enum TestKeys {
  /// The fixture key `name` (`rsa-a`, `rsa-b`, `ec-a`, `ec-b`, `ec-p521`, `ed25519`), every one
  /// with `"key_ops":["sign","verify"]`; `operations` replaces them.
  static func jwk(_ name: String, operations: [String]? = nil) throws -> [String: JSONValue] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appending(path: "../Fixtures/jwk/\(name).json")
    var members = try JSONDecoder().decode([String: JSONValue].self, from: Data(contentsOf: url))
    if let operations { members["key_ops"] = .array(operations.map(JSONValue.string)) }
    return members
  }

  /// The JSON text of an array of `keys`.
  static func text(_ keys: [[String: JSONValue]]) -> [UInt8] {
    JSONValue.array(keys.map(JSONValue.object)).jsonBytes
  }

  /// The key set of `keys`, which must parse.
  static func set(_ keys: [[String: JSONValue]]) throws -> JWTKeys {
    try #require(try JWTKeys.parse(text(keys)))
  }
}

/// `GOTRUE_JWT_KEYS` read as GoTrue reads it: good keys of each type, and each malformed case
/// refused with one line saying what is wrong and what would be right.
struct JWKParsingTests {
  @Test func keysOfEachTypeParseIntoTheirAlgorithmAndKind() throws {
    let cases: [(String, JWTAlgorithm, AsymmetricKey.Kind)] = [
      ("rsa-a", .rs256, .rsa), ("ec-a", .es256, .ellipticCurve(.p256)),
      ("ec-p521", .es512, .ellipticCurve(.p521)), ("ed25519", .edDSA, .ed25519),
    ]
    for (name, algorithm, kind) in cases {
      let key = try JSONWebKey(.object(TestKeys.jwk(name)))
      #expect(key.id == "test-\(name)")
      #expect(key.algorithm == algorithm)
      #expect(key.signs)
      guard case .asymmetric(let material) = key.material else {
        Issue.record("\(name) is not asymmetric")
        continue
      }
      #expect(material.kind == kind)
      #expect(material.isPrivate)
    }
    var rs512 = try TestKeys.jwk("rsa-b")
    rs512["alg"] = .string("RS512")
    #expect(try JSONWebKey(.object(rs512)).algorithm == .rs512)
    let oct = try JSONWebKey(
      .object(["kty": .string("oct"), "k": .string("c2VjcmV0"), "alg": .string("HS256")]))
    #expect(oct.id == "")
    #expect(!oct.signs)
    guard case .secret(let secret) = oct.material else { throw Unexpected.material }
    #expect(secret == Array("secret".utf8))
  }

  @Test func aPublicKeyOnlyVerifies() throws {
    var members = try TestKeys.jwk("rsa-a", operations: ["verify"])
    for name in ["d", "p", "q", "dp", "dq", "qi"] { members[name] = nil }
    let key = try JSONWebKey(.object(members))
    guard case .asymmetric(let material) = key.material else { throw Unexpected.material }
    #expect(!material.isPrivate)
    #expect(!key.signs)
  }

  @Test func thePublishedKeyHasThePublicMembersOnly() throws {
    var members = try TestKeys.jwk("rsa-a")
    members["ext"] = .bool(true)
    let rsa = try #require(try JSONWebKey(.object(members)).publicJWK)
    #expect(Set(rsa.keys) == ["alg", "e", "ext", "key_ops", "kid", "kty", "n", "use"])
    #expect(rsa["key_ops"] == .array([.string("verify")]))
    #expect(rsa["use"] == .string("sig"))
    #expect(rsa["n"] == members["n"])
    let ec = try #require(try JSONWebKey(.object(TestKeys.jwk("ec-a"))).publicJWK)
    #expect(Set(ec.keys) == ["alg", "crv", "key_ops", "kid", "kty", "use", "x", "y"])
    let okp = try #require(try JSONWebKey(.object(TestKeys.jwk("ed25519"))).publicJWK)
    #expect(Set(okp.keys) == ["alg", "crv", "key_ops", "kid", "kty", "use", "x"])
    let oct = try JSONWebKey(
      .object(["kty": .string("oct"), "k": .string("c2VjcmV0"), "alg": .string("HS256")]))
    #expect(oct.publicJWK == nil)
  }

  @Test func anEmptyArrayIsNoKeys() throws {
    #expect(try JWTKeys.parse(Array("[]".utf8)) == nil)
    let keys = try TestKeys.set([
      TestKeys.jwk("rsa-a"), TestKeys.jwk("ec-a", operations: ["verify"]),
    ])
    #expect(keys.signing.id == "test-rsa-a")
    #expect(keys.algorithms == JWTAlgorithmSet([.rs256, .es256]))
  }

  enum Unexpected: Error { case material }
}
