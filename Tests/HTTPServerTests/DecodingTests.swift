import Testing

@testable import HTTPServer

/// Decoding and lookups, without sockets.
struct DecodingTests {
  @Test func queryPairsAreDecodedInOrder() {
    let pairs = PercentDecoding.query("a+b=c+d&plus=%2B&flag&page=&per_page=&&x=1=2&bad=%zz%4")
    #expect(pairs.map(\.name) == ["a b", "plus", "flag", "page", "per_page", "x", "bad"])
    #expect(pairs.map(\.value) == ["c d", "+", "", "", "", "1=2", "%zz%4"])
  }

  @Test func pathKeepsPlusAndDecodesEscapes() {
    #expect(PercentDecoding.path(Array("/a+b/%C3%A9%2F%41".utf8)) == "/a+b/é/A")
    #expect(PercentDecoding.path(Array("/%FF".utf8)) == "/\u{FFFD}")
  }

  @Test func headerLookupIgnoresCaseAndTakesTheFirst() {
    let request = HTTPRequest(
      method: .get, path: "/",
      query: [("a", "1"), ("a", "2")],
      headers: [("Authorization", "Bearer x"), ("authorization", "second")])
    #expect(request.header("AUTHORIZATION") == "Bearer x")
    #expect(request.header("authorizatio") == nil)
    #expect(request.queryValue("a") == "1")
    #expect(request.queryValue("A") == nil)
  }

  @Test func replyChecksNameTheProblem() {
    #expect(ReplyWriter.problem(in: HTTPResponse(status: 200, headers: [("Bad Name", "v")])) != nil)
    #expect(ReplyWriter.problem(in: HTTPResponse(status: 200, headers: [("X", "a\0b")])) != nil)
    #expect(ReplyWriter.problem(in: HTTPResponse(status: 99)) != nil)
    #expect(ReplyWriter.problem(in: HTTPResponse(status: 204, headers: [("X-Ok", "é ok")])) == nil)
  }

  @Test func durationsBecomeWholeMillisecondsRoundedUp() {
    #expect(Duration.milliseconds(500).milliseconds == 500)
    #expect(Duration.microseconds(1).milliseconds == 1)
    #expect(Duration.seconds(10).milliseconds == 10_000)
    #expect(Duration.zero.milliseconds == 0)
    #expect(Duration.seconds(Int64.max).milliseconds == 1 << 40)
  }
}
