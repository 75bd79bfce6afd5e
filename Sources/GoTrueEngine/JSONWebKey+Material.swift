import AuthCrypto
import GoTrue

/// The key a JWK's numbers make (RFC 7518 §6): an RSA, EC or Ed25519 key through libcrypto,
/// or an `oct` key's secret, each member checked as jwx checks it.
struct KeyMaterial {
  private let members: [String: JSONValue]

  /// The key of the numbers of a JWK of key type `type` whose `alg` is `algorithm`.
  static func key(_ members: [String: JSONValue], type: String, algorithm: JWTAlgorithm)
    throws(JSONWebKey.Problem) -> VerificationKey
  {
    let numbers = KeyMaterial(members: members)
    switch type {
    case "RSA": return .asymmetric(try numbers.rsa())
    case "EC": return .asymmetric(try numbers.ellipticCurve(algorithm))
    case "OKP": return .asymmetric(try numbers.ed25519())
    default:
      guard let secret = try numbers.bytes("k") else {
        throw JSONWebKey.Problem("is an oct key without its secret (\"k\")")
      }
      guard !secret.isEmpty else { throw JSONWebKey.Problem("is an oct key with an empty \"k\"") }
      return .secret(secret)
    }
  }

  private func rsa() throws(JSONWebKey.Problem) -> AsymmetricKey {
    guard let n = try bytes("n"), let e = try bytes("e") else {
      throw JSONWebKey.Problem("is an RSA key without its modulus and exponent (\"n\", \"e\")")
    }
    if members["oth"] != nil {
      throw JSONWebKey.Problem("has more than two primes (\"oth\"); give a two-prime RSA key")
    }
    let d = try bytes("d")
    var factors: [[UInt8]] = []
    for name in ["p", "q", "dp", "dq", "qi"] {
      if let factor = try bytes(name) { factors.append(factor) }
    }
    guard factors.isEmpty || (factors.count == 5 && d != nil) else {
      throw JSONWebKey.Problem(
        "has some of \"p\", \"q\", \"dp\", \"dq\", \"qi\"; give \"d\" with all five or none")
    }
    let crt =
      factors.isEmpty
      ? nil
      : RSAFactors(p: factors[0], q: factors[1], dp: factors[2], dq: factors[3], qi: factors[4])
    let key = try usable("RSA") { () throws(AsymmetricKey.Failure) in
      try AsymmetricKey.rsa(n: n, e: e, d: d, crt: crt)
    }
    guard key.bitCount >= 1_024 else {
      throw JSONWebKey.Problem(
        "is a \(key.bitCount)-bit RSA key; GoTrue refuses RSA keys under 1024 bits: use 2048")
    }
    return key
  }

  private func ellipticCurve(_ algorithm: JWTAlgorithm) throws(JSONWebKey.Problem)
    -> AsymmetricKey
  {
    guard let curve = algorithm.curve else { throw JSONWebKey.Problem("has no curve") }
    guard let name = members["crv"]?.stringValue else {
      throw JSONWebKey.Problem("has no \"crv\"; \(algorithm.rawValue) signs on \(curve.rawValue)")
    }
    guard name == curve.rawValue else {
      throw JSONWebKey.Problem(
        "is on \(name.prefix(20)), but \(algorithm.rawValue) signs on \(curve.rawValue)")
    }
    guard let x = try bytes("x"), let y = try bytes("y") else {
      throw JSONWebKey.Problem("is an EC key without its point (\"x\", \"y\")")
    }
    let d = try bytes("d")
    if let d, d.count != curve.coordinateByteCount {
      throw JSONWebKey.Problem(
        "has a \"d\" of \(d.count) bytes; a \(curve.rawValue) key's has "
          + "\(curve.coordinateByteCount)")
    }
    return try usable("EC") { () throws(AsymmetricKey.Failure) in
      try AsymmetricKey.ellipticCurve(curve, x: x, y: y, d: d)
    }
  }

  private func ed25519() throws(JSONWebKey.Problem) -> AsymmetricKey {
    guard members["crv"]?.stringValue == "Ed25519" else {
      throw JSONWebKey.Problem("is an OKP key not on Ed25519 (\"crv\"); EdDSA signs on Ed25519")
    }
    guard let x = try bytes("x") else {
      throw JSONWebKey.Problem("is an Ed25519 key without its public key (\"x\")")
    }
    let d = try bytes("d")
    return try usable("Ed25519") { () throws(AsymmetricKey.Failure) in
      try AsymmetricKey.ed25519(x: x, d: d)
    }
  }

  /// The key `make` gives, its failure said as a problem of a `type` key.
  private func usable(
    _ type: String, _ make: () throws(AsymmetricKey.Failure) -> AsymmetricKey
  ) throws(JSONWebKey.Problem) -> AsymmetricKey {
    do {
      return try make()
    } catch {
      throw JSONWebKey.Problem("is not a usable \(type) key: \(error.reason)")
    }
  }

  /// The bytes of the base64url member `name`; `nil` when it is absent.
  private func bytes(_ name: String) throws(JSONWebKey.Problem) -> [UInt8]? {
    guard let value = members[name] else { return nil }
    guard let text = value.stringValue, let bytes = Base64URL.decode(text) else {
      throw JSONWebKey.Problem("has a \"\(name)\" that is not base64url text")
    }
    return bytes
  }
}
