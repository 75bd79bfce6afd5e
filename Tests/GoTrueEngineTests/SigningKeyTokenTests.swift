import AuthCrypto
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Access tokens signed with `GOTRUE_JWT_KEYS` and checked as GoTrue's `parseJWTClaims` checks
/// them: the key a `kid` names, the secret for `JWT_KEY_ID` or HS256, only the valid methods.
struct SigningKeyTokenTests {
  /// The header written without an encoder is the encoder's, for every algorithm.
  @Test func aHeaderWithoutAKeyIDIsTheEncodersBytes() {
    for algorithm in JWTAlgorithm.allCases {
      let key = SigningKey(algorithm: algorithm, key: .secret([1, 2, 3]), id: "")
      let encoded = JSONValue.object([
        "alg": .string(algorithm.rawValue), "typ": .string("JWT"),
      ]).jsonBytes
      #expect(key.header == Base64URL.encode(encoded), "\(algorithm)")
    }
  }

  let clock = AdjustableClock(fixedAt: testEpoch)
  private let prefix = "invalid JWT: unable to parse or verify signature, "

  /// An engine signing with the fixture key `signer`, also knowing `others` (verify only).
  private func engine(
    signer: String, others: [String] = [], validMethods: [JWTAlgorithm]? = nil
  ) throws -> EmbeddedGoTrue {
    let keys = try TestKeys.set(
      [TestKeys.jwk(signer)] + others.map { try TestKeys.jwk($0, operations: ["verify"]) })
    return try makeEngine(clock: clock) { configuration in
      configuration.jwtKeys = keys
      configuration.jwtValidMethods = validMethods.map(JWTAlgorithmSet.init)
    }
  }

  /// The fixture key `name` as a signing key.
  private func signingKey(_ name: String, id: String? = nil) throws -> SigningKey {
    let key = try JSONWebKey(.object(TestKeys.jwk(name)))
    return SigningKey(algorithm: key.algorithm, key: key.material, id: id ?? key.id)
  }

  /// Claims of a service-role token valid for a minute.
  private var adminClaims: [String: JSONValue] {
    ["role": .string("service_role"), "exp": .number(testEpoch.timeIntervalSince1970 + 60)]
  }

  private func header(of token: String) -> String {
    let part = token.split(separator: ".")[0]
    return String(decoding: Base64URL.decode(part) ?? [], as: UTF8.self)
  }

  @Test func eachAlgorithmSignsAccessTokensThatTheEngineAccepts() async throws {
    for (name, algorithm) in [
      ("rsa-a", "RS256"), ("ec-a", "ES256"), ("ec-p521", "ES512"), ("ed25519", "EdDSA"),
    ] {
      let engine = try engine(signer: name)
      let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
      #expect(
        header(of: session.accessToken)
          == #"{"alg":"\#(algorithm)","kid":"test-\#(name)","typ":"JWT"}"#)
      #expect(try await engine.user(accessToken: session.accessToken).id == session.user.id)
      #expect(
        failure(of: { try engine.authorizeAdmin(engine.apiKey(role: "service_role")) }) == nil)
      #expect(header(of: engine.apiKey(role: "anon")) == header(of: session.accessToken))
      let claims = try JSONWebToken.verify(
        session.accessToken, keys: engine.tokenKeys, now: Int(testEpoch.timeIntervalSince1970))
      #expect(claims["sub"] == .string(session.user.id))
      #expect(
        JSONWebToken.length(ofTokenWith: adminClaims, key: engine.tokenKeys.signing)
          == JSONWebToken.sign(adminClaims, key: engine.tokenKeys.signing).utf8.count)
    }
  }

  @Test func rs512SignsWithSHA512() async throws {
    var key = try TestKeys.jwk("rsa-b")
    key["alg"] = .string("RS512")
    let keys = try TestKeys.set([key])
    let engine = try makeEngine(clock: clock) { $0.jwtKeys = keys }
    let token = engine.apiKey(role: "service_role")
    #expect(header(of: token) == #"{"alg":"RS512","kid":"test-rsa-b","typ":"JWT"}"#)
    #expect(failure(of: { try engine.authorizeAdmin(token) }) == nil)
    let parts = token.split(separator: ".")
    let rsa = try #require(
      { if case .asymmetric(let key) = keys.signing.material { key } else { nil } }())
    let input = Array("\(parts[0]).\(parts[1])".utf8)
    let signature = Base64URL.decode(parts[2]) ?? []
    #expect(rsa.verify(signature, of: input, hash: .sha512))
    #expect(!rsa.verify(signature, of: input, hash: .sha256))
  }

  @Test func aTokenSignedByOneKeyIsRefusedByAnother() throws {
    let engine = try engine(signer: "rsa-a", others: ["ec-a"])
    let unknown = JSONWebToken.sign(adminClaims, key: try signingKey("rsa-b"))
    #expect(
      failure(of: { try engine.authorizeAdmin(unknown) })?.apiError?.message
        == prefix + "token is unverifiable: error while executing keyfunc: unrecognized JWT kid "
        + "test-rsa-b for algorithm RS256")
    let impostors = [
      (try signingKey("rsa-b", id: "test-rsa-a"), "crypto/rsa: verification error"),
      (try signingKey("ec-b", id: "test-ec-a"), "crypto/ecdsa: verification error"),
      (
        try signingKey("ec-a", id: "test-rsa-a"),
        "key is of invalid type: ECDSA verify expects *ecdsa.PublicKey"
      ),
      (
        try signingKey("rsa-a", id: "test-ec-a"),
        "key is of invalid type: RSA verify expects *rsa.PublicKey"
      ),
    ]
    for (key, reason) in impostors {
      let forged = JSONWebToken.sign(adminClaims, key: key)
      let refused = failure(of: { try engine.authorizeAdmin(forged) })?.apiError
      #expect(refused?.status == 403)
      #expect(refused?.code == .badJWT)
      #expect(refused?.message == prefix + "token signature is invalid: " + reason)
    }
  }

  @Test func theKidPicksTheKey() throws {
    let engine = try engine(signer: "rsa-a", others: ["ec-a", "ed25519"])
    for name in ["rsa-a", "ec-a", "ed25519"] {
      let token = JSONWebToken.sign(adminClaims, key: try signingKey(name))
      #expect(failure(of: { try engine.authorizeAdmin(token) }) == nil, "\(name)")
    }
  }

  @Test func anRSAPublicKeyUsedAsAnHMACSecretIsRefused() throws {
    // The classic confusion: HS256 "signed" with the server's public key, which anyone has.
    let jwk = try TestKeys.jwk("rsa-a")
    let published = try #require(try JSONWebKey(.object(jwk)).publicJWK)
    let candidates: [[UInt8]] = [
      JSONValue.object(published).jsonBytes, Base64URL.decode(jwk["n"]?.stringValue ?? "") ?? [],
    ]
    for methods in [nil, [JWTAlgorithm.hs256, .rs256]] {
      let engine = try engine(signer: "rsa-a", validMethods: methods)
      for secret in candidates {
        let named = JSONWebToken.sign(
          adminClaims, key: SigningKey(algorithm: .hs256, key: .secret(secret), id: "test-rsa-a"))
        let unnamed = JSONWebToken.sign(adminClaims, secret: secret)
        let reasons =
          methods == nil
          ? ["signing method HS256 is invalid", "signing method HS256 is invalid"]
          : ["key is of invalid type: HMAC verify expects []byte", "signature is invalid"]
        for (token, reason) in zip([named, unnamed], reasons) {
          #expect(
            failure(of: { try engine.authorizeAdmin(token) })?.apiError?.message
              == prefix + "token signature is invalid: " + reason)
        }
      }
    }
  }

  @Test func onlyTheValidMethodsAreAccepted() throws {
    // GoTrue's default: the keys' algorithms, so the secret's HS256 tokens stop working…
    let strict = try engine(signer: "ec-a")
    let legacy = JSONWebToken.sign(adminClaims, secret: strict.secrets.jwt)
    #expect(
      failure(of: { try strict.authorizeAdmin(legacy) })?.apiError?.message
        == prefix + "token signature is invalid: signing method HS256 is invalid")
    // …unless they are listed, as the Supabase CLI lists HS256,RS256,ES256.
    let lenient = try engine(signer: "ec-a", validMethods: [.hs256, .rs256, .es256])
    #expect(
      failure(of: {
        try lenient.authorizeAdmin(JSONWebToken.sign(adminClaims, secret: lenient.secrets.jwt))
      }) == nil)
    // A key in the set whose algorithm is not listed verifies nothing.
    let narrowed = try engine(signer: "ec-a", others: ["rsa-a"], validMethods: [.es256])
    let rsaToken = JSONWebToken.sign(adminClaims, key: try signingKey("rsa-a"))
    #expect(
      failure(of: { try narrowed.authorizeAdmin(rsaToken) })?.apiError?.message
        == prefix + "token signature is invalid: signing method RS256 is invalid")
    let headers = [
      (#"{"typ":"JWT"}"#, "token is unverifiable: signing method (alg) is unspecified"),
      (#"{"alg":"HS999"}"#, "token is unverifiable: signing method (alg) is unavailable"),
      (#"{"alg":"none"}"#, "token signature is invalid: signing method none is invalid"),
      (
        #"{"alg":"PS256","kid":"test-ec-a"}"#,
        "token signature is invalid: signing method PS256 is invalid"
      ),
    ]
    for (header, reason) in headers {
      let token =
        Base64URL.encode(Array(header.utf8)) + "."
        + Base64URL.encode(JSONValue.object(adminClaims).jsonBytes) + ".c2ln"
      #expect(
        failure(of: { try strict.authorizeAdmin(token) })?.apiError?.message == prefix + reason)
    }
  }

  @Test func anOctKeySignsHS256UnderItsKidAndIsNeverPublished() async throws {
    let oct: [String: JSONValue] = [
      "kty": .string("oct"), "kid": .string("shared"), "alg": .string("HS256"),
      "k": .string(Base64URL.encode(Array("a shared secret of 32 bytes, ok!".utf8))),
      "key_ops": .array([.string("sign"), .string("verify")]),
    ]
    let keys = try TestKeys.set([oct, try TestKeys.jwk("ec-a", operations: ["verify"])])
    let engine = try makeEngine(clock: clock) { $0.jwtKeys = keys }
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    #expect(header(of: session.accessToken) == #"{"alg":"HS256","kid":"shared","typ":"JWT"}"#)
    #expect(try await engine.user(accessToken: session.accessToken).id == session.user.id)
    let byOctKey = SigningKey(
      algorithm: .hs256, key: .secret(Array("a shared secret of 32 bytes, ok!".utf8)), id: "")
    let unnamed = JSONWebToken.sign(adminClaims, key: byOctKey)
    // Without a kid an HS256 token is checked with JWT_SECRET, not with the oct key.
    #expect(
      failure(of: { try engine.authorizeAdmin(unnamed) })?.apiError?.message
        == prefix + "token signature is invalid: signature is invalid")
    #expect(engine.tokenKeys.published.map { $0.objectValue?["kid"] } == [.string("test-ec-a")])
  }

  @Test func theSecretsKeyIDNamesItInHeadersAndChecks() async throws {
    let engine = try makeEngine(clock: clock) { $0.jwtKeyID = "legacy-hs" }
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    #expect(header(of: session.accessToken) == #"{"alg":"HS256","kid":"legacy-hs","typ":"JWT"}"#)
    #expect(try await engine.user(accessToken: session.accessToken).id == session.user.id)
    // GoTrue falls back to the secret for any HS256 token whose kid it does not know.
    let other = SigningKey(algorithm: .hs256, key: .secret(engine.secrets.jwt), id: "other")
    #expect(
      failure(of: { try engine.authorizeAdmin(JSONWebToken.sign(adminClaims, key: other)) }) == nil)
    #expect(engine.tokenKeys.published.isEmpty)
    // Without keys nothing changes: HS256 with the secret, the same header bytes.
    let plain = try makeEngine(clock: clock)
    #expect(header(of: plain.apiKey(role: "anon")) == #"{"alg":"HS256","typ":"JWT"}"#)
    #expect(
      plain.apiKey(role: "anon")
        == JSONWebToken.sign(
          ["iss": .string("authflow"), "role": .string("anon"), "exp": .number(4_102_444_800)],
          secret: plain.secrets.jwt))
  }
}
