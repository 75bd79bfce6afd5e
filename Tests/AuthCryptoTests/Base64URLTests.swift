import Testing

@testable import AuthCrypto

/// The direct base64url encoder and decoder agree with Foundation's; the decoder leaves it
/// every text that is not canonical unpadded base64url.
struct Base64URLTests {
  @Test func bytesOfEveryLengthEncodeAsFoundationEncodesAndDecodeDirectly() {
    var state: UInt64 = 26
    for length in 0..<200 {
      let bytes = (0..<length).map { _ -> UInt8 in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
      }
      let text = Base64URL.encode(bytes)
      #expect(text == Base64URL.foundationEncode(bytes), "\(bytes)")
      #expect(Array(text.utf8).withUnsafeBufferPointer(Base64URL.canonicalDecode) == bytes)
      #expect(Base64URL.decode(text) == bytes)
      #expect(Base64URL.decode(text[...]) == bytes, "a substring too")
    }
  }

  @Test func everyShortTextGetsFoundationsVerdict() {
    let characters = Array("AZaz09-_+/=$ gh".map(String.init)) + ["Q", "E", "w", "\u{e9}"]
    var texts = [""]
    for _ in 0..<3 {
      texts += texts.flatMap { text in characters.map { text + $0 } }
    }
    texts += ["Zg==", "Zg=", "Zm8=", "Zh", "Zm9", "Zm-", "QQ", "QR", "QUI", "QUJ", "Zg\n", " Zg"]
    var direct = 0
    for text in Set(texts) {
      #expect(Base64URL.decode(text) == Base64URL.foundationDecode(text), "\(text)")
      if Array(text.utf8).withUnsafeBufferPointer(Base64URL.canonicalDecode) != nil { direct += 1 }
    }
    #expect(direct > 1_000, "\(direct) of them decoded directly")
  }
}
