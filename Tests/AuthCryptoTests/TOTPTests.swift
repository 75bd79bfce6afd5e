import AuthCrypto
import Testing

/// TOTP (RFC 6238) and what it stands on, HMAC-SHA1 and base32, against the RFCs' answers.
struct TOTPTests {
  /// RFC 6238's secret for SHA-1: the ASCII digits "1234567890" twice.
  let rfcSecret = Array("12345678901234567890".utf8)

  @Test func hmacSHA1KnownAnswers() {
    // RFC 2202, test cases 1 and 2.
    let first = HMAC.sha1(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8))
    #expect(first.hexString == "b617318655057264e28bc0b6fb378c8ef146be00")
    let second = HMAC.sha1(
      key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
    #expect(second.hexString == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
  }

  @Test func rfc6238AppendixBVectorsForSHA1() {
    let totp = TOTP(secret: rfcSecret, digits: 8)
    let vectors: [(Int64, Int64, String)] = [
      (59, 0x1, "94287082"), (1_111_111_109, 0x23523EC, "07081804"),
      (1_111_111_111, 0x23523ED, "14050471"), (1_234_567_890, 0x273EF07, "89005924"),
      (2_000_000_000, 0x3F940AA, "69279037"), (20_000_000_000, 0x27BC86AA, "65353130"),
    ]
    for (time, step, code) in vectors {
      #expect(totp.step(at: time) == step, "T at \(time)")
      #expect(totp.code(at: time) == code, "code at \(time)")
    }
  }

  @Test func sixDigitCodesAreTheLastSixOfTheEightDigitOnes() {
    // Truncation takes the number modulo 10^digits, so the 6-digit code is the 8-digit one's
    // last six digits.
    let eight = TOTP(secret: rfcSecret, digits: 8)
    let six = TOTP(secret: rfcSecret)
    for time: Int64 in [59, 1_111_111_109, 1_234_567_890, 2_000_000_000] {
      #expect(six.code(at: time) == String(eight.code(at: time).suffix(6)))
    }
    #expect(six.code(at: 59) == "287082")
  }

  @Test func aCodeMatchesOneStepEitherSideAndNoFurther() {
    let totp = TOTP(secret: rfcSecret)
    let now: Int64 = 1_735_689_615
    let step = totp.step(at: now)
    for offset: Int64 in [-1, 0, 1] {
      #expect(totp.matchingStep(of: totp.code(forStep: step + offset), at: now) == step + offset)
    }
    for offset: Int64 in [-2, 2, -3, 3] {
      #expect(totp.matchingStep(of: totp.code(forStep: step + offset), at: now) == nil)
    }
  }

  @Test func aStepAlreadyUsedOrEarlierIsNotAcceptedAgain() {
    let totp = TOTP(secret: rfcSecret)
    let now: Int64 = 1_735_689_615
    let step = totp.step(at: now)
    let current = totp.code(forStep: step)
    #expect(totp.matchingStep(of: current, at: now, after: step - 1) == step)
    #expect(totp.matchingStep(of: current, at: now, after: step) == nil)
    #expect(totp.matchingStep(of: totp.code(forStep: step - 1), at: now, after: step) == nil)
    #expect(totp.matchingStep(of: totp.code(forStep: step + 1), at: now, after: step) == step + 1)
  }

  @Test func codesAreTrimmedAndMustHaveTheirLength() {
    let totp = TOTP(secret: rfcSecret)
    let now: Int64 = 1_735_689_615
    let code = totp.code(at: now)
    #expect(totp.matchingStep(of: " \(code)\n", at: now) != nil)
    #expect(totp.matchingStep(of: code + "0", at: now) == nil)
    #expect(totp.matchingStep(of: String(code.dropLast()), at: now) == nil)
    #expect(totp.matchingStep(of: "", at: now) == nil)
    #expect(totp.matchingStep(of: "abcdef", at: now) == nil)
  }

  @Test func base32KnownAnswers() {
    // RFC 4648 §10, without the padding TOTP secrets leave out.
    let vectors = [
      ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"),
      ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI"),
    ]
    for (plain, encoded) in vectors {
      #expect(Base32.encode(Array(plain.utf8)) == encoded)
      #expect(Base32.decode(encoded) == Array(plain.utf8))
    }
    #expect(Base32.decode("mzxw6ytboi======") == Array("foobar".utf8))
    #expect(Base32.decode("MZXW6YTBO") == nil, "a length no encoding makes")
    #expect(Base32.decode("MZ1W") == nil, "1 is not in the alphabet")
    #expect(Base32.decode("MY=A") == nil, "data after padding")
    // A 20-byte secret is 32 characters, as authenticator apps show it.
    #expect(Base32.encode([UInt8](repeating: 0xFF, count: 20)).count == 32)
  }
}
