import HTTPServer
import Testing

/// A reply the server cannot send as built becomes a 500, never a reply missing a header.
struct ReplyCheckTests {
  static let unexpectedFailure =
    #"{"code":500,"error_code":"unexpected_failure","msg":"Unexpected failure, please check server logs for more information"}"#

  @Test(arguments: ["/crlf", "/folded", "/bad-status"])
  func unsendableReplyBecomes500Json(path: String) async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
      let response = try await connection.response()
      #expect(response.status == 500)
      #expect(response.header("Content-Type") == "application/json")
      #expect(response.header("Location") == nil)
      #expect(response.header("Set-Cookie") == nil)
      #expect(response.header("X-Folded") == nil)
      #expect(response.text == Self.unexpectedFailure)
      let entry = try #require(server.log.all.last)
      #expect(entry.status == 500)
      #expect(entry.path == path)
      #expect(entry.problem != nil)
      // The connection stays usable.
      await connection.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(try await connection.response().status == 200)
    }
  }
}
