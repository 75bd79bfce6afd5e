import HTTPServer
import Testing

/// The framing check in front of evhttp: limits answered at once, well-formed requests served
/// exactly as before (pipelined, chunked, trickled), and nothing served after a refusal.
struct FramingTests {
  @Test func ninetyNineGigabyteDeclaredLengthGets413AtOnce() async throws {
    // The server would close an idle request only after 120 s; the answer is read for 100 s:
    // a 413 that waited for the body (or for the timeout) never comes in time. No shorter
    // deadline, which a loaded machine can miss.
    try await withServer({ $0.requestTimeout = .seconds(120) }) { server in
      let connection = try await server.connect()
      await connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 99000000000\r\n\r\n")
      let response = try await connection.response(timeout: .seconds(100))
      #expect(response.status == 413)
      #expect(response.header("Connection") == "close")
      #expect(response.text.contains("Content-Length over the 1048576-byte limit"))
      #expect(await connection.readToEnd().bytes.isEmpty)
    }
  }

  @Test func chunkOverTheBodyLimitGets413AtOnce() async throws {
    try await withServer({ $0.maxBodyBytes = 1024 }) { server in
      let connection = try await server.connect()
      await connection.send(
        "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n500\r\n")
      let response = try await connection.response()
      #expect(response.status == 413)
      #expect(response.text.contains("chunked body over the 1024-byte limit"))
    }
  }

  @Test func headOverTheLimitGets431AndALongRequestLine414() async throws {
    try await withServer({ $0.maxHeaderBytes = 1024 }) { server in
      let padding = String(repeating: "a", count: 2000)
      let cases = [
        ("GET /health HTTP/1.1\r\nHost: t\r\nX-Pad: \(padding)\r\n\r\n", 431),
        ("GET /\(padding) HTTP/1.1\r\nHost: t\r\n\r\n", 414),
      ]
      for (request, status) in cases {
        let connection = try await server.connect()
        await connection.send(request)
        let response = try await connection.response()
        #expect(response.status == status)
        #expect(response.header("Connection") == "close")
      }
      // Just under the limit is served.
      let fits = "GET /health HTTP/1.1\r\nHost: t\r\nX-Pad: "
      let connection = try await server.connect()
      let pad = String(repeating: "b", count: 1024 - fits.utf8.count - 4)
      await connection.send(fits + pad + "\r\n\r\n")
      #expect(try await connection.response().status == 200)
    }
  }

  @Test func pipelinedRequestsWithAChunkedBodyAreAnsweredInOrder() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send(
        "\r\nPOST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: Chunked\r\n\r\n"
          + "5\r\nhello\r\n00006\r\n world\r\n0\r\n\r\n"
          + "GET /health HTTP/1.1\r\nHost: t\r\n\r\n"
          + "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc"
          + "HEAD /page HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n"
          + "GET /query?n=5 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
      var replies: [TestResponse] = []
      for index in 0..<5 {
        replies.append(try await connection.response(bodyless: index == 3))
      }
      #expect(replies.map(\.status) == [201, 200, 201, 200, 200])
      #expect(replies.map(\.text) == ["hello world", "ok", "abc", "", "n=5"])
      #expect(replies.allSatisfy { $0.header("Connection") != "close" })
      await connection.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(try await connection.response().text == "ok")
    }
  }

  @Test func aBodyOfHeadOrTraceIsDroppedAndTheNextRequestServed() async throws {
    // libevent reads no body for HEAD or TRACE; Go's server does, and GoTrue then answers
    // 405. The check drops the body so it is not taken for the next request.
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send(
        "HEAD /page HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc"
          + "TRACE /health HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "5\r\nhello\r\n0\r\n\r\n"
          + "TRACE /health HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nGET /"
          + "GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
      let head = try await connection.response(bodyless: true)
      #expect(head.status == 200)
      let traces = [try await connection.response(), try await connection.response()]
      #expect(traces.allSatisfy { $0.header("Connection") != "close" })
      #expect(try await connection.response().text == "ok")
    }
  }

  @Test func requestTrickledInPiecesIsServed() async throws {
    // NB: a generous idle timeout: under a full parallel run the test's own pauses between
    // pieces can stretch to seconds, and the server rightly drops a request that stalls.
    try await withServer({ $0.requestTimeout = .seconds(60) }) { server in
      let connection = try await server.connect()
      let pieces = [
        "POST /ec", "ho HTTP/1.1\r", "\nHost: t\r\nTransfer-Encoding: chunked\r\n", "\r",
        "\n4\r", "\nab", "cd\r", "\n0\r\n", "\r", "\nGET /health HTTP/1.1\r\nHost: t\r\n\r\n",
      ]
      for piece in pieces {
        await connection.send(piece)
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(try await connection.response().text == "abcd")
      #expect(try await connection.response().text == "ok")
    }
  }

  @Test func validRequestAfterARefusedOneIsNotServed() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send(
        "GET /health HTTP/1.1\r\nHost: t\r\n\r\n"
          + "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"
          + "GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(try await connection.response().status == 200)
      let refused = try await connection.response()
      #expect(refused.status == 400)
      #expect(refused.header("Connection") == "close")
      let (rest, ending) = await connection.readToEnd()
      #expect(rest.isEmpty, "\(String(decoding: rest, as: UTF8.self))")
      #expect(ending == .closed || ending == .reset)
      #expect(server.log.all.map(\.status) == [200, 400])
    }
  }
}
