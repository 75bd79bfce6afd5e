import HTTPServer
import Testing

/// Limits and hostile clients: the server answers or closes, and keeps serving.
struct ProtectionTests {
  @Test func bodyOverTheLimitGets413AndTheServerKeepsServing() async throws {
    try await withServer({ $0.maxBodyBytes = 1024 }) { server in
      let connection = try await server.connect()
      let body = String(repeating: "x", count: 4096)
      await connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4096\r\n\r\n" + body)
      let response = try await connection.response()
      #expect(response.status == 413)
      #expect(try await server.isHealthy())
    }
  }

  @Test func bodyAtTheLimitIsAccepted() async throws {
    try await withServer({ $0.maxBodyBytes = 1024 }) { server in
      let connection = try await server.connect()
      let body = String(repeating: "y", count: 1024)
      await connection.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1024\r\n\r\n" + body)
      #expect(try await connection.response().text == body)
    }
  }

  @Test func garbageGets400OrACloseAndTheServerKeepsServing() async throws {
    try await withServer { server in
      for garbage in ["\u{1}\u{2}garbage\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9x\r\n\r\n"] {
        let connection = try await server.connect()
        await connection.send(garbage)
        let (bytes, ending) = await connection.readToEnd()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(ending == .closed || ending == .reset)
        #expect(bytes.isEmpty || text.hasPrefix("HTTP/1.1 400"), "\(text)")
      }
      #expect(try await server.isHealthy())
    }
  }

  @Test func truncatedRequestThenCloseIsDropped() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("GET /health HTTP/1.1\r\nHost: t\r\n")
      connection.finishSending()
      let (bytes, ending) = await connection.readToEnd()
      #expect(ending == .closed || ending == .reset)
      #expect(bytes.isEmpty || String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
      #expect(try await server.isHealthy())
    }
  }

  @Test func connectionsOverTheCapGet503ThenPlainCloses() async throws {
    try await withServer({
      $0.maxConnections = 4
      $0.refusalSlots = 2
      // A loaded machine may pause this test for seconds between connect and send.
      $0.requestTimeout = .seconds(60)
      $0.refusalTimeout = .seconds(60)
    }) { server in
      #expect(server.server.connectionCap == 4)
      var served: [TestConnection] = []
      for _ in 0..<4 {
        let connection = try await server.connect()
        await connection.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try await connection.response().status == 200)
        served.append(connection)
      }
      // Accepted in connect order: two take the refusal slots, the third is closed at once.
      let refused = [try await server.connect(), try await server.connect()]
      let dropped = try await server.connect()
      let (droppedBytes, droppedEnding) = await dropped.readToEnd()
      #expect(droppedBytes.isEmpty)
      #expect(droppedEnding == .closed)
      for connection in refused {
        await connection.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        let response = try await connection.response()
        #expect(response.status == 503)
        #expect(response.header("Connection") == "close")
        #expect(response.text.hasPrefix(#"{"code":503,"error_code":"over_connection_limit""#))
        #expect(await connection.readToEnd().ending == .closed)
      }
      // The served ones leave (the server frees each before the client sees its close)...
      for connection in served {
        await connection.send("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(try await connection.response().status == 200)
        #expect(await connection.readToEnd().ending == .closed)
      }
      // ...and new clients are served again.
      #expect(try await server.isHealthy())
    }
  }

  // The timeouts here are checked from above only, with a wide margin: how early the server
  // closes, measured from the client, would measure the machine (a loaded one pauses the test's
  // thread between the server's clock and its own), not the server. That the deadline is not
  // too early shows instead in what got through first: bytes, or a whole answer. Each client
  // connects and speaks on one thread, since the deadline runs from the server's accept.
  @Test func clientSendingOneByteEvery200msIsClosedAfterTheTimeout() async throws {
    try await withServer({ $0.requestTimeout = .seconds(2) }) { server in
      let request = Array(
        ("GET /health HTTP/1.1\r\nHost: t\r\nX-Pad: " + String(repeating: "a", count: 80)).utf8)
      let port = server.port
      let sent = try await onThread { () throws -> Int in
        let connection = try TestConnection.openNow(port: port)
        for (index, byte) in request.enumerated() {
          guard connection.sendNow([byte]) else { return index }
          if connection.closedByPeer(within: .milliseconds(200)) { return index + 1 }
        }
        return request.count
      }
      // Counted in bytes, not seconds: a loaded machine stretches the client's pauses, not the
      // server's deadline.
      #expect(sent >= 2, "the server should read a few bytes before its deadline")
      #expect(sent < 40, "the server should close after about 10 bytes, not wait for all 90")
      #expect(try await server.isHealthy())
    }
  }

  @Test func idleKeepAliveIsClosedAfterTheTimeout() async throws {
    try await withServer({ $0.requestTimeout = .seconds(2) }) { server in
      let port = server.port
      let connection = try await onThread { () throws -> TestConnection in
        let connection = try TestConnection.openNow(port: port)
        _ = connection.sendNow(Array("GET /health HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        return connection
      }
      #expect(try await connection.response().status == 200)
      // The close is the event waited for; a server that kept the connection would let this
      // read run out instead (a minute: a loaded machine may be slow, never that slow).
      let (bytes, ending) = await connection.readToEnd(timeout: .seconds(60))
      #expect(bytes.isEmpty)
      #expect(ending == .closed)
    }
  }
}
