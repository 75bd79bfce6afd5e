import HTTPServer
import Testing

/// Requests and replies over real sockets: what the server puts on the wire.
struct ServingTests {
  @Test func immediateRouteAnswersOnTheLoop() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
      let response = try await connection.response()
      #expect(response.status == 200)
      #expect(response.text == "ok")
      #expect(response.header("Content-Type") == "text/plain")
      #expect(response.header("Content-Length") == "2")
      #expect(response.header("Date") != nil)
    }
  }

  @Test func workThatBlocksRunsOnTheServersOwnThreads() async throws {
    // Eight requests that each block a thread until all eight run: on Swift's pool (a thread
    // per core) they would wait for each other until they gave up.
    try await withServer({ $0.workThreads = 8 }) { server in
      var connections: [TestConnection] = []
      for _ in 0..<8 { connections.append(try await server.connect()) }
      for connection in connections {
        await connection.send("GET /together HTTP/1.1\r\nHost: t\r\n\r\n")
      }
      for connection in connections { #expect(try await connection.response().text == "met") }
    }
  }

  @Test func postBodyReachesTheAsyncResponder() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\n{\"k\":\"v\"}\r\n")
      let response = try await connection.response()
      #expect(response.status == 201)
      #expect(response.text == "{\"k\":\"v\"}\r\n")
    }
  }

  @Test func headersAreFoundIgnoringCaseAndRepeatedOnesAllGoOut() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send(
        "GET /headers HTTP/1.1\r\nHost: t\r\nx-test: hello\r\nAUTHORIZATION: Bearer abc\r\n\r\n")
      let response = try await connection.response()
      #expect(response.status == 200)
      #expect(response.header("X-Echo") == "hello")
      #expect(response.header("X-Authorization") == "Bearer abc")
      #expect(response.headers("Set-Cookie") == ["a=1", "b=2"])
      // An empty body has no type, as from Go's server (evhttp's default type is off).
      #expect(response.header("Content-Type") == nil)
    }
  }

  @Test func queryIsDecodedInOrder() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send(
        "GET /query?a+b=c+d&plus=%2B&flag&page=&per_page=&e=%C3%A9 HTTP/1.1\r\nHost: t\r\n\r\n")
      let response = try await connection.response()
      #expect(response.text == "a b=c d\nplus=+\nflag=\npage=\nper_page=\ne=é")
    }
  }

  @Test func percentEncodedPathIsDecoded() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("GET /%68ealth HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(try await connection.response().text == "ok")
    }
  }

  @Test func keepAliveServesTwoRequestsOnOneConnection() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(try await connection.response().status == 200)
      await connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc")
      let second = try await connection.response()
      #expect(second.status == 201)
      #expect(second.text == "abc")
      #expect(second.header("Connection") == nil)
    }
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nfirst"
          + "GET /health HTTP/1.1\r\nHost: t\r\n\r\n"
          + "GET /query?n=3 HTTP/1.1\r\nHost: t\r\n\r\n")
      let replies = [
        try await connection.response(), try await connection.response(),
        try await connection.response(),
      ]
      #expect(replies.map(\.status) == [201, 200, 200])
      #expect(replies.map(\.text) == ["first", "ok", "n=3"])
    }
  }

  @Test func headAnswersLikeGetWithoutTheBody() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("HEAD /page HTTP/1.1\r\nHost: t\r\n\r\n")
      let head = try await connection.response(bodyless: true)
      #expect(head.status == 200)
      #expect(head.header("Content-Length") == "10")
      #expect(head.body.isEmpty)
      // Nothing stray follows on the connection: the next reply parses cleanly.
      await connection.send("GET /page HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(try await connection.response().text == "0123456789")
    }
  }

  @Test func redirectCarriesItsLocation() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("GET /redirect HTTP/1.1\r\nHost: t\r\n\r\n")
      let response = try await connection.response()
      #expect(response.status == 303)
      #expect(response.header("Location") == "/target")
      #expect(response.header("Content-Length") == "0")
    }
  }

  @Test func unknownRouteReachesTheResponder() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("DELETE /nowhere HTTP/1.1\r\nHost: t\r\n\r\n")
      let response = try await connection.response()
      #expect(response.status == 404)
      #expect(response.text == "no route DELETE /nowhere")
    }
  }

  @Test func peerIsTheClientAddressOnBothFamilies() async throws {
    try await withServer({ $0.hosts = ["127.0.0.1", "::1"] }) { server in
      #expect(server.server.addresses == ["127.0.0.1:\(server.port)", "[::1]:\(server.port)"])
      for (host, prefix) in [("127.0.0.1", "127.0.0.1:"), ("::1", "[::1]:")] {
        let connection = try await server.connect(host: host)
        await connection.send("GET /peer HTTP/1.1\r\nHost: t\r\n\r\n")
        let peer = try await connection.response().text
        #expect(peer.hasPrefix(prefix))
        #expect(UInt16(peer.dropFirst(prefix.count)) != nil)
      }
    }
  }
}
