import AuthCrypto
import GoTrue

/// The keys access tokens are signed with and bearer tokens checked against: GoTrue's JWT
/// configuration after `ApplyDefaults` (`conf/configuration.go`).
///
/// Without `JWT_KEYS` the secret signs (HS256, with `JWT_KEY_ID` as `kid` when set) and HS256
/// is the one valid method. With them, the key that lists `sign` signs, and the valid methods
/// default to the keys' algorithms. Either way a token is checked as `api/auth.go`
/// `parseJWTClaims` does: a `kid` naming a key → that key's public half (or an `oct` key's
/// secret); a `kid` equal to `JWT_KEY_ID`, or `alg` HS256 → the secret.
package struct TokenKeys: Sendable {
  /// What tokens are signed with.
  package let signing: SigningKey
  /// The methods a bearer token may use (GoTrue's `JWT_VALID_METHODS`).
  package let validMethods: JWTAlgorithmSet
  /// The public JWKs `/.well-known/jwks.json` lists: every key's but `oct` keys'.
  package let published: [JSONValue]
  private let byID: [String: VerificationKey]
  private let secret: [UInt8]
  private let secretID: String
  /// The key a token with the signing key's own header is checked with, found once.
  let ownKey: Result<VerificationKey, JWTRejection>
  /// The tokens already checked against these keys (``VerifiedTokens``).
  let verified = VerifiedTokens()

  /// The keys of a configuration: `secret` (GoTrue's `JWT_SECRET`) with `keyID` (its
  /// `JWT_KEY_ID`), the `keys` of `JWT_KEYS`, and `validMethods` when `JWT_VALID_METHODS`
  /// is set.
  package init(
    secret: [UInt8], keyID: String? = nil, keys: JWTKeys? = nil,
    validMethods: JWTAlgorithmSet? = nil
  ) {
    self.secret = secret
    secretID = keyID ?? ""
    if let keys {
      signing = SigningKey(
        algorithm: keys.signing.algorithm, key: keys.signing.material, id: keys.signing.id)
      var byID: [String: VerificationKey] = [:]
      for key in keys.keys { byID[key.id] = key.material }
      self.byID = byID
      self.validMethods = validMethods ?? keys.algorithms
      published = keys.keys.compactMap { $0.publicJWK.map(JSONValue.object) }
    } else {
      signing = SigningKey(algorithm: .hs256, key: .secret(secret), id: secretID)
      byID = [:]
      self.validMethods = validMethods ?? JWTAlgorithmSet([.hs256])
      published = []
    }
    ownKey = Self.key(
      kid: signing.id.isEmpty ? nil : .string(signing.id), algorithm: signing.algorithm,
      byID: byID, secret: secret, secretID: secretID)
  }

  /// The key for a token whose header has `kid` (any JSON value, or none) and names
  /// `algorithm`, as GoTrue's key function picks it; else golang-jwt's keyfunc error.
  func key(kid: JSONValue?, algorithm: JWTAlgorithm) -> Result<VerificationKey, JWTRejection> {
    Self.key(kid: kid, algorithm: algorithm, byID: byID, secret: secret, secretID: secretID)
  }

  private static func key(
    kid: JSONValue?, algorithm: JWTAlgorithm, byID: [String: VerificationKey], secret: [UInt8],
    secretID: String
  ) -> Result<VerificationKey, JWTRejection> {
    if case .string(let id)? = kid {
      if let key = byID[id] { return .success(key) }
      if id == secretID { return .success(.secret(secret)) }
    }
    if algorithm == .hs256 { return .success(.secret(secret)) }
    let shown = kid.map(goText) ?? "<nil>"
    return .failure(
      JWTRejection(
        "token is unverifiable: error while executing keyfunc: unrecognized JWT kid \(shown) "
          + "for algorithm \(algorithm.rawValue)"))
  }

  /// A header value as Go's `%v` prints it (enough for a message).
  private static func goText(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): String(text.prefix(64))
    case .number(let number):
      number == number.rounded() && abs(number) < 1e18 ? String(Int64(number)) : "\(number)"
    case .bool(let flag): "\(flag)"
    case .null: "<nil>"
    case .array, .object: "map[…]"
    }
  }
}

/// A key tokens are signed with, with the header it writes: GoTrue's (golang-jwt's) header,
/// `{"alg":…,"kid":…,"typ":"JWT"}` (members sorted, as Go writes a map), `kid` left out when
/// empty.
package struct SigningKey: Sendable {
  /// Its algorithm.
  package let algorithm: JWTAlgorithm
  /// What signs.
  let key: VerificationKey
  /// Its `kid`, empty for none.
  package let id: String
  /// The header, base64url-encoded.
  let header: String
  /// The header's bytes, to know a token this key signed without decoding its header.
  let headerBytes: [UInt8]

  /// The HS256 key of a secret, with no `kid`: what the Firebase surface signs with.
  package static func hs256(secret: [UInt8]) -> SigningKey {
    SigningKey(algorithm: .hs256, key: .secret(secret), encodedHeader: plainHS256Header)
  }

  private static let plainHS256Header = Base64URL.encode(
    Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

  init(algorithm: JWTAlgorithm, key: VerificationKey, id: String) {
    let json: [UInt8]
    if id.isEmpty {
      // The usual header, written as the encoder writes it (keys sorted; algorithm names are
      // plain letters and digits): no encoder is started for it when the program starts.
      json = Array(#"{"alg":"\#(algorithm.rawValue)","typ":"JWT"}"#.utf8)
    } else {
      let header: [String: JSONValue] = [
        "alg": .string(algorithm.rawValue), "kid": .string(id), "typ": .string("JWT"),
      ]
      json = JSONValue.object(header).jsonBytes
    }
    self.init(algorithm: algorithm, key: key, encodedHeader: Base64URL.encode(json), id: id)
  }

  private init(
    algorithm: JWTAlgorithm, key: VerificationKey, encodedHeader: String, id: String = ""
  ) {
    self.algorithm = algorithm
    self.key = key
    self.id = id
    header = encodedHeader
    headerBytes = Array(encodedHeader.utf8)
  }

  /// The length of its signatures.
  var signatureByteCount: Int {
    switch key {
    case .secret: SHA256.byteCount
    case .asymmetric(let key): key.signatureByteCount
    }
  }
}
