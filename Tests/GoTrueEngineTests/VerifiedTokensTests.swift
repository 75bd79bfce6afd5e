import AuthCrypto
import GoTrue
import Testing

@testable import GoTrueEngine

/// A token checked once is not checked in full again, but what depends on the time still is,
/// and any other text is a token of its own, checked in full.
struct VerifiedTokensTests {
  private let secret = Array("a-secret-of-at-least-32-characters!!".utf8)

  private func token(_ claims: [String: JSONValue], secret: [UInt8]) -> String {
    let input =
      Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "."
      + Base64URL.encode(JSONValue.object(claims).jsonBytes)
    return input + "." + Base64URL.encode(HMAC.sha256(key: secret, message: Array(input.utf8)))
  }

  @Test func aCheckedTokenIsRememberedAndItsTimesCheckedOnEachUse() throws {
    let keys = TokenKeys(secret: secret)
    let good = token(["sub": .string("u1"), "exp": .number(2_000)], secret: secret)
    #expect(keys.verified.claims(of: good) == nil)
    let claims = try JSONWebToken.verify(good, keys: keys, now: 1_000)
    #expect(claims["sub"] == .string("u1"))
    #expect(keys.verified.claims(of: good) == claims, "remembered once checked")
    #expect(throws: GoTrueAPIError.self, "expired on a later use, though remembered") {
      try JSONWebToken.verify(good, keys: keys, now: 2_000)
    }
    #expect(try JSONWebToken.verify(good, keys: keys, now: 1_999)["sub"] == .string("u1"))
  }

  @Test func anotherSignatureOrAnotherKeySetIsCheckedInFull() throws {
    let keys = TokenKeys(secret: secret)
    let good = token(["sub": .string("u1"), "exp": .number(2_000)], secret: secret)
    _ = try JSONWebToken.verify(good, keys: keys, now: 1_000)
    let forged = token(
      ["sub": .string("u1"), "exp": .number(2_000)],
      secret: Array("another-secret-of-at-least-32-chars!".utf8))
    #expect(throws: GoTrueAPIError.self) { try JSONWebToken.verify(forged, keys: keys, now: 1_000) }
    #expect(keys.verified.claims(of: forged) == nil, "a refused token is not remembered")
    let otherKeys = TokenKeys(secret: Array("another-secret-of-at-least-32-chars!".utf8))
    #expect(throws: GoTrueAPIError.self) {
      try JSONWebToken.verify(good, keys: otherKeys, now: 1_000)
    }
  }

  @Test func theMemoryIsBounded() {
    let tokens = VerifiedTokens()
    for index in 0..<(VerifiedTokens.capacity + 10) {
      tokens.remember("t\(index)", ["n": .number(Double(index))])
    }
    #expect(tokens.claims(of: "t0") == nil)
    #expect(tokens.claims(of: "t\(VerifiedTokens.capacity + 9)") != nil)
  }
}
