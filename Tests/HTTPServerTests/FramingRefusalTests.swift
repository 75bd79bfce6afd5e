import HTTPServer
import Testing

/// Requests RFC 9112 says to refuse, which libevent alone would serve (or read differently):
/// each gets its status with the reason in GoTrue's error shape, and the connection closes.
struct FramingRefusalTests {
  /// One malformed request and what it must get.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var request: String
    var status: Int
    var reason: String

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "conflicting Content-Length",
      request: "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n"
        + "Content-Length: 4\r\n\r\nabcd",
      status: 400, reason: "two different Content-Length values"),
    Case(
      name: "Content-Length with a plus sign",
      request: "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: +3\r\n\r\nabc",
      status: 400, reason: "Content-Length is not a decimal number"),
    Case(
      name: "obs-fold", request: "GET /health HTTP/1.1\r\nHost: t\r\nX-A: a\r\n b\r\n\r\n",
      status: 400, reason: "obs-fold: a field line starts with whitespace"),
    Case(
      name: "bare LF", request: "GET /health HTTP/1.1\nHost: t\n\n", status: 400,
      reason: "bare LF line ending"),
    Case(
      name: "NUL in a value", request: "GET /health HTTP/1.1\r\nHost: t\r\nX-A: a\u{0}b\r\n\r\n",
      status: 400, reason: "NUL in a field value"),
    Case(
      name: "bare CR in a value",
      request: "GET /health HTTP/1.1\r\nHost: t\r\nX-A: a\rb\r\n\r\n", status: 400,
      reason: "bare CR in a field value"),
    Case(
      name: "space before the colon", request: "GET /health HTTP/1.1\r\nHost: t\r\nX-A : b\r\n\r\n",
      status: 400, reason: "whitespace between a field name and its colon"),
    Case(
      name: "invalid field name", request: "GET /health HTTP/1.1\r\nHost: t\r\nX(A): b\r\n\r\n",
      status: 400, reason: "invalid byte in a field name"),
    Case(
      name: "two Hosts", request: "GET /health HTTP/1.1\r\nHost: t\r\nHost: u\r\n\r\n",
      status: 400, reason: "more than one Host field"),
    Case(
      name: "no Host on HTTP/1.1", request: "GET /health HTTP/1.1\r\n\r\n", status: 400,
      reason: "HTTP/1.1 request without Host"),
    Case(
      name: "Transfer-Encoding and Content-Length",
      request: "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
        + "Content-Length: 8\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
      status: 400, reason: "both Transfer-Encoding and Content-Length"),
    Case(
      name: "gzip, chunked",
      request: "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
        + "0\r\n\r\n",
      status: 501, reason: "transfer codings other than chunked"),
    Case(
      name: "tab before chunked",
      request: "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding:\tchunked\r\n\r\n0\r\n\r\n",
      status: 400, reason: "tab before the Transfer-Encoding value"),
    Case(
      name: "chunk size with 0x", request: chunked("0x3\r\nabc\r\n0\r\n\r\n"), status: 400,
      reason: "chunk size is not hexadecimal digits"),
    Case(
      name: "chunk size with a space", request: chunked("3 \r\nabc\r\n0\r\n\r\n"), status: 400,
      reason: "chunk size is not hexadecimal digits"),
    Case(
      name: "chunk extension", request: chunked("3;x=1\r\nabc\r\n0\r\n\r\n"), status: 400,
      reason: "chunk extension"),
    Case(
      name: "trailer section",
      request: chunked("3\r\nabc\r\n0\r\nAuthorization: Bearer x\r\n\r\n"), status: 400,
      reason: "trailer fields after the last chunk"),
    Case(
      name: "unknown method", request: "BREW /health HTTP/1.1\r\nHost: t\r\n\r\n", status: 405,
      reason: "method not allowed"),
    Case(
      name: "CONNECT", request: "CONNECT /health HTTP/1.1\r\nHost: t\r\n\r\n", status: 405,
      reason: "method not allowed"),
    Case(
      name: "HTTP/2.0 on HTTP/1 framing", request: "GET /health HTTP/2.0\r\nHost: t\r\n\r\n",
      status: 505, reason: "HTTP/2.0 is not supported"),
    Case(
      name: "the refusal field from a client",
      request: "GET /health HTTP/1.1\r\nHost: t\r\nX-Authflow-Refused: 200 ok\r\n\r\n",
      status: 400, reason: "reserved field x-authflow-refused"),
  ]

  /// A chunked POST with `body` after its head.
  private static func chunked(_ body: String) -> String {
    "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + body
  }

  @Test(arguments: cases)
  func malformedRequestIsRefusedAndTheConnectionCloses(_ refused: Case) async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send(refused.request)
      let response = try await connection.response()
      #expect(response.status == refused.status)
      #expect(response.header("Connection") == "close")
      #expect(response.header("Content-Type") == "application/json")
      #expect(response.text.contains(#""msg":"\#(refused.reason)""#), "\(response.text)")
      let (rest, ending) = await connection.readToEnd()
      #expect(rest.isEmpty)
      #expect(ending == .closed || ending == .reset)
      let entry = try #require(server.log.all.last)
      #expect(entry.status == refused.status)
      #expect(entry.method == "-")
      #expect(entry.problem == refused.reason)
      #expect(try await server.isHealthy())
    }
  }
}
