import Testing

@testable import GoTrueEngine

/// Go's `encoding/json` syntax check and its words (scanner.go's `checkValid`), byte by byte.
struct GoJSONSyntaxTests {
  @Test(arguments: [
    ("\u{0}", #"invalid character '\x00' looking for beginning of value"#),
    (" \u{1}", #"invalid character '\x01' looking for beginning of value"#),
    ("{\"email\":\"a\u{0}\"}", #"invalid character '\x00' in string literal"#),
    ("{\u{0}}", #"invalid character '\x00' looking for beginning of object key string"#),
    ("{\"a\":1}\u{0}", #"invalid character '\x00' after top-level value"#),
    ("{\"a\" 1}", "invalid character '1' after object key"),
    ("{\"a\":1 \"b\":2}", #"invalid character '"' after object key:value pair"#),
    ("[1 2]", "invalid character '2' after array element"),
    ("{\"a\":tru}", "invalid character '}' in literal true (expecting 'e')"),
    ("nul", "invalid character ' ' in literal null (expecting 'l')"),
    ("fals", "invalid character ' ' in literal false (expecting 'e')"),
    ("{", "unexpected end of JSON input"),
    ("{\"a\":[1,", "unexpected end of JSON input"),
    ("\"open", "unexpected end of JSON input"),
    (#""\q""#, "invalid character 'q' in string escape code"),
    (#""\u12x4""#, #"invalid character 'x' in \u hexadecimal character escape"#),
    ("-x", "invalid character 'x' in numeric literal"),
    ("-", "invalid character ' ' in numeric literal"),
    ("1.x", "invalid character 'x' after decimal point in numeric literal"),
    ("1.", "invalid character ' ' after decimal point in numeric literal"),
    ("1ex", "invalid character 'x' in exponent of numeric literal"),
    ("01", "invalid character '1' after top-level value"),
    ("{\"a\":1,}", "invalid character '}' looking for beginning of object key string"),
    ("[1,]", "invalid character ']' looking for beginning of value"),
    ("'a'", #"invalid character '\'' looking for beginning of value"#),
    ("\u{7F}", #"invalid character '\x7f' looking for beginning of value"#),
    ("\t\r\n{\"a\":\"b\"}\n x", "invalid character 'x' after top-level value"),
  ])
  func aTextGoCannotReadGetsGosWords(text: String, message: String) {
    #expect(GoJSONSyntax.error(in: Array(text.utf8)) == message)
  }

  @Test func bytesBeyondASCIIAreNamedAsTheCodePointOfTheSameNumber() {
    // A byte-order mark's first byte is 'ï'; U+0080 and the no-break space are not printable.
    #expect(
      GoJSONSyntax.error(in: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D])
        == "invalid character 'ï' looking for beginning of value")
    #expect(GoJSONSyntax.quoted(0x80) == #"'\u0080'"#)
    #expect(GoJSONSyntax.quoted(0xA0) == #"'\u00a0'"#)
    #expect(GoJSONSyntax.quoted(UInt8(ascii: "\"")) == #"'"'"#)
    #expect(GoJSONSyntax.quoted(UInt8(ascii: "\\")) == #"'\\'"#)
    #expect(GoJSONSyntax.quoted(0x0A) == #"'\n'"#)
  }

  @Test(arguments: [
    #"{"a":[1,-0,2.5e-3,0.5E+10,true,false,null,"\u00e9\n\/"],"b":{}}"#, " 1 ", "-0", "[]",
    "\"\"", "0", "123",
    "{\"bytes\":\"\u{E9}\"}",
  ])
  func whatGoReadsPasses(text: String) {
    #expect(GoJSONSyntax.error(in: Array(text.utf8)) == nil, "\(text)")
  }

  @Test func nestingDeeperThanGosLimitIsRefusedAsGoRefusesIt() {
    let deep = [UInt8](repeating: UInt8(ascii: "["), count: GoJSONSyntax.maximumDepth + 1)
    #expect(GoJSONSyntax.error(in: deep) == "invalid character '[' exceeded max depth")
    let allowed =
      [UInt8](repeating: UInt8(ascii: "["), count: GoJSONSyntax.maximumDepth)
      + [UInt8](repeating: UInt8(ascii: "]"), count: GoJSONSyntax.maximumDepth)
    #expect(GoJSONSyntax.error(in: allowed) == nil)
  }
}
