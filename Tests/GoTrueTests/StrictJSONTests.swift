import GoTrue
import Testing

/// JSON that Go would read otherwise than Foundation is refused before it is decoded.
struct StrictJSONTests {
  private func problem(_ text: String) -> StrictJSON.Problem? {
    StrictJSON.problem(in: Array(text.utf8))
  }

  @Test func aNameGivenTwiceInOneObjectIsRefused() {
    #expect(problem(#"{"role":"a","role":"b"}"#) == .duplicateMember("role"))
    #expect(problem(#"{"a":{"x":1,"x":2}}"#) == .duplicateMember("x"), "at any depth")
    #expect(problem(#"[{"x":1},{"x":2,"y":[{"x":3,"x":4}]}]"#) == .duplicateMember("x"))
    #expect(problem(#"{"role":"a","\u0072ole":"b"}"#) == .duplicateMember("role"), "escaped")
  }

  @Test func atTheTopLevelNamesGoWouldFoldTogetherAreTheSame() {
    #expect(problem(#"{"email":"a","EMAIL":"b"}"#) == .duplicateMember("EMAIL"))
    #expect(problem(#"{"sub":"a","ſub":"b"}"#) == .duplicateMember("ſub"), "long s folds to s")
    #expect(problem(#"{"kid":"a","\u212aid":"b"}"#) != nil, "the Kelvin sign folds to k")
    #expect(problem(#"{"data":{"Name":"a","name":"b"}}"#) == nil, "below the top, case counts")
    #expect(problem(#"{"Role_1":"a","rOLE_1":"b"}"#) == .duplicateMember("rOLE_1"), "ASCII")
    #expect(problem(#"{"sub":"a","\u0053UB":"b"}"#) == .duplicateMember("SUB"), "escaped")
    #expect(problem(#"{"sub_":"a","sub@":"b","SUB`":"c","sub[":"d"}"#) == nil)
  }

  @Test func namesRepeatedInOtherObjectsOrAsValuesAreFine() {
    #expect(problem(#"{"a":{"x":1},"b":{"x":2},"x":"a"}"#) == nil)
    #expect(problem(#"{"a":"a","b":["a","a"],"c":"\"a\":1,\"a\":2"}"#) == nil)
    #expect(problem(#"{"a":"x,}"}"#) == nil, "commas in strings are text")
    #expect(problem(#"{"a":"\",]"}"#) == nil, "so are escaped quotes")
  }

  @Test func trailingCommasAndOtherEncodingsAreGosSyntaxErrors() {
    #expect(
      problem(#"{"a":1,}"#) == .syntax("invalid character '}' looking for beginning of value"))
    #expect(problem("\u{FEFF}{}")?.message.contains("byte-order mark") == true)
    #expect(StrictJSON.problem(in: [0x7B, 0x00, 0x7D])?.message.contains("UTF-8") == true)
  }
}
