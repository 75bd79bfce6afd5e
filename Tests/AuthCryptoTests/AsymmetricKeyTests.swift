import AuthCrypto
import Foundation
import Testing

/// Keys made from a JWK's numbers sign and verify through libcrypto, and keys whose numbers
/// do not make one key are refused.
struct AsymmetricKeyTests {
  /// The base64url members of the fixture key `name` (Tests/Fixtures/jwk), decoded.
  private func numbers(_ name: String) throws -> [String: [UInt8]] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appending(path: "../Fixtures/jwk/\(name).json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var numbers: [String: [UInt8]] = [:]
    for name in ["n", "e", "d", "p", "q", "dp", "dq", "qi", "x", "y"] {
      if let text = object[name] as? String { numbers[name] = Base64URL.decode(text) }
    }
    return numbers
  }

  private func rsa(_ name: String, privately: Bool = true, crt: Bool = true) throws
    -> AsymmetricKey
  {
    let n = try numbers(name)
    var factors: RSAFactors?
    if crt, privately {
      factors = RSAFactors(
        p: try #require(n["p"]), q: try #require(n["q"]), dp: try #require(n["dp"]),
        dq: try #require(n["dq"]), qi: try #require(n["qi"]))
    }
    return try AsymmetricKey.rsa(
      n: #require(n["n"]), e: #require(n["e"]), d: privately ? n["d"] : nil, crt: factors)
  }

  private func ec(_ name: String, _ curve: AsymmetricKey.EllipticCurve, privately: Bool = true)
    throws -> AsymmetricKey
  {
    let n = try numbers(name)
    return try AsymmetricKey.ellipticCurve(
      curve, x: #require(n["x"]), y: #require(n["y"]), d: privately ? n["d"] : nil)
  }

  private func ed25519(privately: Bool = true) throws -> AsymmetricKey {
    let n = try numbers("ed25519")
    return try AsymmetricKey.ed25519(x: #require(n["x"]), d: privately ? n["d"] : nil)
  }

  @Test func eachKindSignsWhatItsPublicHalfVerifies() throws {
    let message = Array("header.payload".utf8)
    let cases: [(AsymmetricKey, AsymmetricKey, HashFunction?, Int)] = [
      (try rsa("rsa-a"), try rsa("rsa-a", privately: false), .sha256, 256),
      (try rsa("rsa-a", crt: false), try rsa("rsa-a", privately: false), .sha512, 256),
      (try ec("ec-a", .p256), try ec("ec-a", .p256, privately: false), .sha256, 64),
      (try ec("ec-p521", .p521), try ec("ec-p521", .p521, privately: false), .sha512, 132),
      (try ed25519(), try ed25519(privately: false), nil, 64),
    ]
    for (signer, verifier, hash, length) in cases {
      let signature = try #require(signer.sign(message, hash: hash))
      #expect(signature.count == length)
      #expect(signer.signatureByteCount == length)
      #expect(verifier.verify(signature, of: message, hash: hash))
      #expect(!verifier.verify(signature, of: message + [0], hash: hash))
      var altered = signature
      altered[altered.count / 3] ^= 1
      #expect(!verifier.verify(altered, of: message, hash: hash))
      #expect(verifier.sign(message, hash: hash) == nil, "a public key cannot sign")
    }
  }

  @Test func aSignatureOfOneKeyFailsUnderAnother() throws {
    let message = Array("header.payload".utf8)
    let rsaSignature = try #require(try rsa("rsa-a").sign(message, hash: .sha256))
    #expect(!(try rsa("rsa-b", privately: false).verify(rsaSignature, of: message, hash: .sha256)))
    #expect(!(try rsa("rsa-a").verify(rsaSignature, of: message, hash: .sha512)))
    let ecSignature = try #require(try ec("ec-a", .p256).sign(message, hash: .sha256))
    #expect(!(try ec("ec-b", .p256).verify(ecSignature, of: message, hash: .sha256)))
    #expect(
      !(try ec("ec-a", .p256).verify(Array(ecSignature.prefix(63)), of: message, hash: .sha256)))
    #expect(!(try ec("ec-a", .p256).verify([], of: message, hash: .sha256)))
  }

  @Test func numbersThatMakeNoKeyAreRefused() throws {
    let a = try numbers("ec-a")
    let b = try numbers("ec-b")
    let rsaA = try numbers("rsa-a")
    let rsaB = try numbers("rsa-b")
    let ed = try numbers("ed25519")
    let refusals: [() throws -> AsymmetricKey] = [
      // Another key's private scalar.
      {
        try AsymmetricKey.ellipticCurve(.p256, x: a["x"] ?? [], y: a["y"] ?? [], d: b["d"])
      },
      // A point off the curve.
      {
        try AsymmetricKey.ellipticCurve(.p256, x: a["x"] ?? [], y: b["y"] ?? [], d: nil)
      },
      // Coordinates of another curve's size.
      {
        try AsymmetricKey.ellipticCurve(.p521, x: a["x"] ?? [], y: a["y"] ?? [], d: nil)
      },
      // Another key's private exponent.
      {
        try AsymmetricKey.rsa(n: rsaA["n"] ?? [], e: rsaA["e"] ?? [], d: rsaB["d"], crt: nil)
      },
      // An Ed25519 seed that does not give the public key.
      {
        try AsymmetricKey.ed25519(x: ed["x"] ?? [], d: Array((ed["d"] ?? []).reversed()))
      },
      { try AsymmetricKey.ed25519(x: [1, 2, 3], d: nil) },
    ]
    for (index, make) in refusals.enumerated() {
      #expect(throws: AsymmetricKey.Failure.self, "case \(index)") { try make() }
    }
  }
}
