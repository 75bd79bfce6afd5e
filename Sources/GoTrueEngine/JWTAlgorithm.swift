import AuthCrypto

/// The signing algorithms (`alg`) of the tokens the engine signs and checks: those GoTrue
/// signs with (`conf/jwk.go` `GetSigningAlg`). Checking follows golang-jwt's methods: the
/// token's `alg` picks the method, and the key must be of the method's type.
package enum JWTAlgorithm: String, CaseIterable, Sendable {
  /// HMAC with SHA-256, under a shared secret.
  case hs256 = "HS256"
  /// RSA PKCS #1 v1.5 with SHA-256.
  case rs256 = "RS256"
  /// RSA PKCS #1 v1.5 with SHA-512.
  case rs512 = "RS512"
  /// ECDSA on P-256 with SHA-256.
  case es256 = "ES256"
  /// ECDSA on P-521 with SHA-512.
  case es512 = "ES512"
  /// Ed25519.
  case edDSA = "EdDSA"

  /// The names golang-jwt knows: a token naming another is refused as "unavailable", one
  /// naming a known algorithm that is not allowed as "invalid".
  static let knownNames: Set<String> = [
    "HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256",
    "ES384", "ES512", "EdDSA", "none",
  ]

  /// The hash signed over (none for HMAC, whose hash is part of it, and for Ed25519).
  var hash: HashFunction? {
    switch self {
    case .rs256, .es256: .sha256
    case .rs512, .es512: .sha512
    case .hs256, .edDSA: nil
    }
  }

  /// The curve an ECDSA method signs on.
  var curve: AsymmetricKey.EllipticCurve? {
    switch self {
    case .es256: .p256
    case .es512: .p521
    default: nil
    }
  }

  /// `signature` of `input` signed with `key`; the key was checked to be of this method's type
  /// when it was configured.
  func sign(_ input: [UInt8], with key: VerificationKey) -> [UInt8] {
    switch key {
    case .secret(let secret):
      return HMAC.sha256(key: secret, message: input)
    case .asymmetric(let key):
      guard let signature = key.sign(input, hash: hash) else {
        preconditionFailure("libcrypto could not sign with a checked \(rawValue) key")
      }
      return signature
    }
  }

  /// Why `signature` is not `key`'s over `input` with this method, in golang-jwt's words, or
  /// `nil` when it is. HMAC signatures are compared in constant time.
  func problem(verifying signature: [UInt8], of input: [UInt8], with key: VerificationKey)
    -> String?
  {
    switch (self, key) {
    case (.hs256, .secret(let secret)):
      return constantTimeEquals(HMAC.sha256(key: secret, message: input), signature)
        ? nil : "signature is invalid"
    case (.hs256, _):
      return "key is of invalid type: HMAC verify expects []byte"
    case (.rs256, .asymmetric(let key)) where key.kind == .rsa,
      (.rs512, .asymmetric(let key)) where key.kind == .rsa:
      return key.verify(signature, of: input, hash: hash)
        ? nil : "crypto/rsa: verification error"
    case (.rs256, _), (.rs512, _):
      return "key is of invalid type: RSA verify expects *rsa.PublicKey"
    case (.es256, .asymmetric(let key)), (.es512, .asymmetric(let key)):
      guard case .ellipticCurve = key.kind else {
        return "key is of invalid type: ECDSA verify expects *ecdsa.PublicKey"
      }
      // golang-jwt takes the halves' size from the method, not from the key.
      let size = 2 * (curve?.coordinateByteCount ?? 0)
      return signature.count == size && key.verify(signature, of: input, hash: hash)
        ? nil : "crypto/ecdsa: verification error"
    case (.es256, _), (.es512, _):
      return "key is of invalid type: ECDSA verify expects *ecdsa.PublicKey"
    case (.edDSA, .asymmetric(let key)) where key.kind == .ed25519:
      return key.verify(signature, of: input, hash: nil) ? nil : "ed25519: verification error"
    case (.edDSA, _):
      return "key is of invalid type: Ed25519 verify expects ed25519.PublicKey"
    }
  }
}

/// What a token is signed or checked with: a shared secret (HMAC) or a public key.
package enum VerificationKey: Sendable {
  /// A secret's bytes: GoTrue's JWT secret, or an `oct` key.
  case secret([UInt8])
  /// An RSA, EC or Ed25519 key.
  case asymmetric(AsymmetricKey)
}

/// A set of ``JWTAlgorithm``s: the methods a bearer token may use (GoTrue's
/// `JWT_VALID_METHODS`).
package struct JWTAlgorithmSet: Equatable, Sendable {
  private var bits: UInt8 = 0

  /// The set of `algorithms`.
  package init(_ algorithms: some Sequence<JWTAlgorithm>) {
    for algorithm in algorithms { insert(algorithm) }
  }

  /// Adds `algorithm`.
  package mutating func insert(_ algorithm: JWTAlgorithm) { bits |= Self.bit(algorithm) }

  /// Whether `algorithm` is in the set.
  package func contains(_ algorithm: JWTAlgorithm) -> Bool { bits & Self.bit(algorithm) != 0 }

  /// The algorithms, in ``JWTAlgorithm``'s order.
  package var algorithms: [JWTAlgorithm] { JWTAlgorithm.allCases.filter(contains) }

  private static func bit(_ algorithm: JWTAlgorithm) -> UInt8 {
    switch algorithm {
    case .hs256: 1
    case .rs256: 2
    case .rs512: 4
    case .es256: 8
    case .es512: 16
    case .edDSA: 32
    }
  }
}
