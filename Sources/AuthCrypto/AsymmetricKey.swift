import COpenSSL

// NB: libcrypto 3 lets several threads use one EVP_PKEY at once as long as none modifies it,
// and nothing does after `init`: the key is immutable, hence `@unchecked Sendable`.
/// A public key, with or without its private half, held by libcrypto as an `EVP_PKEY`: RSA,
/// a NIST curve (P-256, P-384, P-521) or Ed25519. Made from the big-endian numbers a JWK
/// carries (`EVP_PKEY_fromdata`); signs and checks through `EVP_DigestSign`/`EVP_DigestVerify`
/// (``sign(_:hash:)``, ``verify(_:of:hash:)``).
///
/// A key is checked when it is made: its public half must be a valid key (an EC point on its
/// curve, an RSA modulus and exponent libcrypto accepts), and a private half must sign what
/// the public half then verifies, so a key whose halves do not belong together never signs.
public final class AsymmetricKey: @unchecked Sendable {
  /// What kind of key it is.
  public enum Kind: Equatable, Sendable {
    /// RSA.
    case rsa
    /// ECDSA on `curve`.
    case ellipticCurve(EllipticCurve)
    /// Ed25519 (EdDSA).
    case ed25519
  }

  /// The curves of ECDSA keys, by their JOSE names.
  public enum EllipticCurve: String, Equatable, Sendable, CaseIterable {
    /// NIST P-256 (`prime256v1`), ES256's.
    case p256 = "P-256"
    /// NIST P-384 (`secp384r1`), ES384's.
    case p384 = "P-384"
    /// NIST P-521 (`secp521r1`), ES512's.
    case p521 = "P-521"

    /// The bytes of one coordinate, of the private scalar, and of each half of a raw signature.
    public var coordinateByteCount: Int {
      switch self {
      case .p256: 32
      case .p384: 48
      case .p521: 66
      }
    }
  }

  /// Why a key could not be made.
  public struct Failure: Error, Equatable, Sendable {
    /// What is wrong with the key, for a message (never any of its numbers).
    public var reason: String
  }

  let key: OpaquePointer
  /// What kind of key it is.
  public let kind: Kind
  /// Whether it holds the private half (and so can sign).
  public let isPrivate: Bool

  private init(key: OpaquePointer, kind: Kind, isPrivate: Bool) {
    self.key = key
    self.kind = kind
    self.isPrivate = isPrivate
  }

  deinit { EVP_PKEY_free(key) }

  /// The size of the key in bits (an RSA modulus', a curve's order's).
  public var bitCount: Int { Int(EVP_PKEY_get_bits(key)) }

  /// An RSA key from its modulus `n` and public exponent `e`, and for a private key its
  /// private exponent `d`, with the primes and CRT values (`p`, `q`, `dp`, `dq`, `qi`) when
  /// known.
  public static func rsa(n: [UInt8], e: [UInt8], d: [UInt8]?, crt: RSAFactors?) throws(Failure)
    -> AsymmetricKey
  {
    var numbers = [("n", n), ("e", e)]
    if let d { numbers.append(("d", d)) }
    if let crt {
      // The names of core_names.h (OSSL_PKEY_PARAM_RSA_FACTOR1 and the rest).
      numbers += [
        ("rsa-factor1", crt.p), ("rsa-factor2", crt.q), ("rsa-exponent1", crt.dp),
        ("rsa-exponent2", crt.dq), ("rsa-coefficient1", crt.qi),
      ]
    }
    let key = try make("RSA", KeyParameters(numbers: numbers), kind: .rsa, isPrivate: d != nil)
    // libcrypto signs with the CRT values and never reads `d`: check they all agree.
    if crt != nil, d != nil, !key.passesPairwiseCheck {
      throw Failure(reason: "its private numbers do not belong together or to its public key")
    }
    return key
  }

  /// An ECDSA key on `curve` from its point (`x`, `y`, each a full coordinate) and, for a
  /// private key, its scalar `d`.
  public static func ellipticCurve(_ curve: EllipticCurve, x: [UInt8], y: [UInt8], d: [UInt8]?)
    throws(Failure) -> AsymmetricKey
  {
    let size = curve.coordinateByteCount
    guard x.count == size, y.count == size else {
      throw Failure(reason: "a \(curve.rawValue) point needs coordinates of \(size) bytes")
    }
    var parameters = KeyParameters(numbers: d.map { [("priv", $0)] } ?? [])
    parameters.strings = [("group", curve.rawValue)]
    // SEC 1's uncompressed point: 0x04, x, y.
    parameters.octets = [("pub", [0x04] + x + y)]
    return try make("EC", parameters, kind: .ellipticCurve(curve), isPrivate: d != nil)
  }

  /// An Ed25519 key from its 32-byte public key `x` and, for a private key, its 32-byte seed
  /// `d`, which must give `x`.
  public static func ed25519(x: [UInt8], d: [UInt8]?) throws(Failure) -> AsymmetricKey {
    guard x.count == 32, d.map({ $0.count == 32 }) ?? true else {
      throw Failure(reason: "an Ed25519 key is 32 bytes")
    }
    let made: OpaquePointer?
    if let d {
      made = d.withUnsafeBufferPointer {
        EVP_PKEY_new_raw_private_key_ex(nil, "ED25519", nil, $0.baseAddress, 32)
      }
    } else {
      made = x.withUnsafeBufferPointer {
        EVP_PKEY_new_raw_public_key_ex(nil, "ED25519", nil, $0.baseAddress, 32)
      }
    }
    guard let made else { throw Failure(reason: "libcrypto refused the Ed25519 key") }
    let key = AsymmetricKey(key: made, kind: .ed25519, isPrivate: d != nil)
    var derived = [UInt8](repeating: 0, count: 32)
    var length = 32
    guard EVP_PKEY_get_raw_public_key(made, &derived, &length) == 1, derived == x else {
      throw Failure(reason: "the private key (d) does not give the public key (x)")
    }
    return key
  }

  /// An Ed25519 private key from its 32-byte seed, its public key derived by libcrypto (a
  /// Solana wallet's key, in tests that sign as one).
  public static func ed25519(seed: [UInt8]) throws(Failure) -> AsymmetricKey {
    guard seed.count == 32,
      let made = seed.withUnsafeBufferPointer({
        EVP_PKEY_new_raw_private_key_ex(nil, "ED25519", nil, $0.baseAddress, 32)
      })
    else { throw Failure(reason: "an Ed25519 seed is 32 bytes") }
    return AsymmetricKey(key: made, kind: .ed25519, isPrivate: true)
  }

  /// The raw public key of an Ed25519 key (32 bytes); `nil` for another kind.
  public var ed25519PublicKey: [UInt8]? {
    guard kind == .ed25519 else { return nil }
    var raw = [UInt8](repeating: 0, count: 32)
    var length = 32
    guard EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1, length == 32 else { return nil }
    return raw
  }

  /// Makes a key of libcrypto's type `type` from `parameters`, then checks it.
  private static func make(
    _ type: String, _ parameters: KeyParameters, kind: Kind, isPrivate: Bool
  ) throws(Failure) -> AsymmetricKey {
    let selection = isPrivate ? copenssl_selection_keypair() : copenssl_selection_public_key()
    guard
      let made = parameters.withParameters({ parameters -> OpaquePointer? in
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var made: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
          EVP_PKEY_fromdata(context, &made, selection, parameters) == 1
        else { return nil }
        return made
      })
    else { throw Failure(reason: "libcrypto refused the key's numbers") }
    let key = AsymmetricKey(key: made, kind: kind, isPrivate: isPrivate)
    try key.check()
    return key
  }

  /// Whether libcrypto's pairwise check passes (for RSA, `RSA_check_key`'s: primes, `d`, CRT
  /// values and modulus agree; it needs the primes).
  private var passesPairwiseCheck: Bool {
    guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return false }
    defer { EVP_PKEY_CTX_free(context) }
    return EVP_PKEY_pairwise_check(context) == 1
  }

  /// Checks the public half with libcrypto, and that a private half signs what the public
  /// half verifies.
  private func check() throws(Failure) {
    let valid: Bool = {
      guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return false }
      defer { EVP_PKEY_CTX_free(context) }
      return EVP_PKEY_public_check(context) == 1
    }()
    guard valid else { throw Failure(reason: "its public key is not a valid key") }
    guard isPrivate else { return }
    let probe = Array("pairwise check".utf8)
    guard let signature = sign(probe, hash: kind == .ed25519 ? nil : .sha256),
      verify(signature, of: probe, hash: kind == .ed25519 ? nil : .sha256)
    else { throw Failure(reason: "its private key does not belong to its public key") }
  }
}

/// An RSA private key's primes and CRT values (RFC 7518 §6.3.2: `p`, `q`, `dp`, `dq`, `qi`).
public struct RSAFactors: Sendable {
  /// The first prime.
  public var p: [UInt8]
  /// The second prime.
  public var q: [UInt8]
  /// `d mod (p - 1)`.
  public var dp: [UInt8]
  /// `d mod (q - 1)`.
  public var dq: [UInt8]
  /// `q⁻¹ mod p`.
  public var qi: [UInt8]

  /// The five numbers, big-endian.
  public init(p: [UInt8], q: [UInt8], dp: [UInt8], dq: [UInt8], qi: [UInt8]) {
    self.p = p
    self.q = q
    self.dp = dp
    self.dq = dq
    self.qi = qi
  }
}
