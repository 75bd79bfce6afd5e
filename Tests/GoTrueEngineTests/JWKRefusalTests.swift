import Foundation
import GoTrue
import Testing

@testable import GoTrueEngine

/// Each way a `GOTRUE_JWT_KEYS` text can be wrong, refused with its own line.
struct JWKRefusalTests {
  /// The problem of `text`, or `nil` when it parses.
  private func problem(_ text: [UInt8]) -> String? {
    do {
      _ = try JWTKeys.parse(text)
      return nil
    } catch {
      return error.message
    }
  }

  /// The problem of a one-key array holding fixture `name` changed by `change`.
  private func problem(
    _ name: String, _ change: (inout [String: JSONValue]) throws -> Void
  ) throws -> String? {
    var members = try TestKeys.jwk(name)
    try change(&members)
    return problem(TestKeys.text([members]))
  }

  @Test func textsThatAreNotAnArrayOfKeys() {
    #expect(problem(Array("[nope".utf8)) == "is not JSON")
    #expect(problem(Array("[1,]".utf8))?.hasPrefix("is not JSON: invalid character") == true)
    #expect(
      problem(Array(#"{"keys":[]}"#.utf8))
        == #"is a JWK set ({"keys":[…]}); GoTrue reads the array alone: give the "keys" array"#)
    #expect(problem(Array("{}".utf8)) == #"is not a JSON array of JWKs ([{"kty":…}, …])"#)
    #expect(problem(Array("[1]".utf8)) == "key 1 is not a JSON object")
    #expect(
      problem(Array(#"[{"kty":"oct","kty":"RSA"}]"#.utf8))?.contains("duplicate member") == true)
  }

  @Test func membersThatMakeNoKeyGoTrueCanUse() throws {
    let prefix = #"key 1 (kid "test-ec-a") "#
    let cases: [(String, (inout [String: JSONValue]) throws -> Void, String)] = [
      ("ec-a", { $0["kty"] = nil }, #"has no "kty"; give RSA, EC, OKP or oct"#),
      (
        "ec-a", { $0["kty"] = .string("XYZ") },
        #"has "kty" "XYZ"; GoTrue's keys are RSA, EC, OKP or oct"#
      ),
      (
        "ec-a", { $0["alg"] = nil },
        #"has no "alg"; GoTrue signs with the key's alg: give ES256 or ES512"#
      ),
      (
        "ec-a", { $0["alg"] = .string("RS256") },
        #"has "alg" "RS256"; an EC key takes ES256 or ES512"#
      ),
      ("ec-a", { $0["crv"] = .string("P-384") }, "is on P-384, but ES256 signs on P-256"),
      ("ec-a", { $0["x"] = .string("not base64!") }, #"has a "x" that is not base64url text"#),
      (
        "ec-a", { $0["x"] = .string("AAAA") },
        "is not a usable EC key: a P-256 point needs coordinates of 32 bytes"
      ),
      (
        "ec-a", { $0["d"] = try TestKeys.jwk("ec-b")["d"] },
        "is not a usable EC key: its private key does not belong to its public key"
      ),
      ("ec-a", { $0["d"] = .string("AAAA") }, #"has a "d" of 3 bytes; a P-256 key's has 32"#),
      (
        "ec-a", { $0["key_ops"] = .string("sign") },
        #"has a "key_ops" that is not an array; give ["sign","verify"]"#
      ),
      (
        "ec-a", { $0["key_ops"] = .array([.string("sign"), .string("mint")]) },
        #"has a "key_ops" entry that is not an operation; give "sign" and/or "verify""#
      ),
      (
        "ec-a", { $0["aws:kms:arn"] = .string("arn:aws:kms:eu-west-1:1:key/x") },
        "names an AWS KMS key, which authflow cannot use; give the key's own numbers"
      ),
      ("ec-a", { $0["d"] = nil }, #"lists "sign" in key_ops but has no private part ("d")"#),
    ]
    for (name, change, expected) in cases {
      #expect(try problem(name, change) == prefix + expected)
    }
    #expect(
      try problem("ec-a") { $0["kid"] = .number(1) } == #"key 1 has a "kid" that is not a string"#)
  }

  @Test func rsaOKPAndOctKeysOfTheWrongShape() throws {
    let rsa = #"key 1 (kid "test-rsa-a") "#
    #expect(
      try problem("rsa-a") { $0["qi"] = nil }
        == rsa + #"has some of "p", "q", "dp", "dq", "qi"; give "d" with all five or none"#)
    #expect(
      try problem("rsa-a") { $0["oth"] = .array([]) }
        == rsa + #"has more than two primes ("oth"); give a two-prime RSA key"#)
    #expect(
      try problem("rsa-a") { $0["n"] = nil }
        == rsa + #"is an RSA key without its modulus and exponent ("n", "e")"#)
    #expect(
      try problem("rsa-a") { $0["d"] = try TestKeys.jwk("rsa-b")["d"] }
        == rsa + "is not a usable RSA key: its private numbers do not belong together or to its "
        + "public key")
    #expect(
      try problem("rsa-a") {
        $0["d"] = try TestKeys.jwk("rsa-b")["d"]
        for name in ["p", "q", "dp", "dq", "qi"] { $0[name] = nil }
      } == rsa + "is not a usable RSA key: its private key does not belong to its public key")
    #expect(
      try problem("ed25519") { $0["crv"] = .string("X25519") }
        == #"key 1 (kid "test-ed25519") is an OKP key not on Ed25519 ("crv"); "#
        + "EdDSA signs on Ed25519"
    )
    #expect(
      problem(Array(#"[{"kty":"oct","alg":"HS256","k":"","key_ops":["sign"]}]"#.utf8))
        == #"key 1 is an oct key with an empty "k""#)
  }

  @Test func exactlyOneKeySignsAndEachHasItsOwnKid() throws {
    let a = try TestKeys.jwk("rsa-a")
    let b = try TestKeys.jwk("ec-a")
    var sameKid = try TestKeys.jwk("ec-a", operations: ["verify"])
    sameKid["kid"] = a["kid"]
    #expect(
      problem(TestKeys.text([a, sameKid]))
        == #"keys 1 and 2 both have kid "test-rsa-a"; give each key its own kid"#)
    #expect(
      problem(TestKeys.text([a, b]))
        == #"has 2 keys that list "sign" in key_ops (kid "test-rsa-a", kid "test-ec-a"); "#
        + #"GoTrue signs with one: give the others "key_ops":["verify"]"#)
    #expect(
      problem(TestKeys.text([try TestKeys.jwk("rsa-a", operations: ["verify"])]))
        == #"has no key that lists "sign" in key_ops; give the key to sign with "#
        + #""key_ops":["sign","verify"]"#)
  }
}
