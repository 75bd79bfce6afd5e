import Testing

@testable import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The direct reader of JSON objects reads what Foundation's decoder reads, and leaves to it
/// every text outside the plain subset.
struct JSONValueParsingTests {
  private func foundation(_ bytes: [UInt8]) -> [String: JSONValue]? {
    try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))
  }

  @Test func writtenObjectsReadBackAsFoundationReadsThem() {
    var samples = JSONSamples(seed: 7)
    var plain = 0
    for _ in 0..<20_000 {
      let bytes = JSONValue.object(samples.object()).jsonBytes
      #expect(JSONValue.object(parsing: bytes) == foundation(bytes))
      if JSONValue.plain(parsing: bytes) != nil { plain += 1 }
    }
    #expect(plain > 2_000, "the direct reader read \(plain) of them")
  }

  @Test func whatTheServerStoresAndSignsIsReadWithoutFoundation() {
    // Integers, strings, flags, nesting, escapes: the plain subset gives Foundation's answer.
    let text = #"""
      { "sub":"5f0c","exp":1700003600, "iat":-42,"amr":[{"method":"password","timestamp":1}],
        "app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{},
        "n":null,"t":true,"f":false,"s":"a\"b\\c\/d\b\f\n\r\t\u00e9\u4e2d😀" }
      """#
    let bytes = Array(text.utf8)
    #expect(JSONValue.plain(parsing: bytes)?.objectValue == foundation(bytes))
    #expect(JSONValue.object(parsing: bytes)?["s"] == .string("a\"b\\c/d\u{8}\u{C}\n\r\té中😀"))
  }

  @Test func unusualTextsGetFoundationsVerdict() {
    let texts = [
      #"{"a":1.5}"#, #"{"a":-0}"#, #"{"a":1e3}"#, #"{"a":1E-3}"#, #"{"a":0.1e+2}"#,
      #"{"a":01}"#, #"{"a":-}"#, #"{"a":1234567890123456789}"#, #"{"a":1e400}"#,
      // Past Int64's digits: counted on, they would overflow.
      #"{"a":99999999999999999999}"#, #"{"a":-123456789012345678901234567890123456789}"#,
      #"{"a":"\ud83d\ude00"}"#, #"{"a":"\ud83d"}"#, #"{"a":"\u0000"}"#, #"{"a":"\x"}"#,
      "{\"a\":\"tab\there\"}", #"{"a":1,"a":2}"#, #"{"e\u0301":1,"é":2}"#, #"{"a":1,}"#,
      #"{"a":[1,]}"#, #"{"a":1} x"#, #"{"a":1}{}"#, "", " ", "{",
      #"{"a""#, #"{"a":tru}"#, #"{"a":nul}"#, #"{'a':1}"#, #"{a:1}"#, "{\u{A0}}",
      String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 100),
      String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ]
    for text in texts {
      let bytes = Array(text.utf8)
      #expect(JSONValue.plain(parsing: bytes) == nil, "\(text)")
      #expect(JSONValue.object(parsing: bytes) == foundation(bytes), "\(text)")
    }
    for text in texts + [#"[1,2]"#, #""a""#, "1", "null", "true", "[]", #"[{"a":[null]}]"#] {
      let bytes = Array(text.utf8)
      let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
      #expect(JSONValue(parsing: bytes) == decoded, "any value: \(text)")
    }
    for text in [#"[1,2]"#, #""a""#, "1", "null"] {
      #expect(JSONValue.object(parsing: Array(text.utf8)) == nil, "not an object: \(text)")
      #expect(foundation(Array(text.utf8)) == nil)
    }
    for bytes: [UInt8] in [
      [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],
    ] {
      #expect(JSONValue.object(parsing: bytes) == foundation(bytes), "\(bytes)")
    }
  }
}
