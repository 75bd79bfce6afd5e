import HTTPServer
import Testing

/// Starting, stopping and the access log.
struct LifecycleTests {
  @Test func stopDuringAnAsyncReplyLetsItFinishWithConnectionClose() async throws {
    try await withServer { server in
      let idle = try await server.connect()
      await idle.send("GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(try await idle.response().status == 200)
      let busy = try await server.connect()
      await busy.send("GET /held HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(await server.gate.arrived.waited(), "the responder never started")

      server.server.stop()
      // The idle connection is closed without a reply as soon as the drain starts.
      let (idleBytes, idleEnding) = await idle.readToEnd()
      #expect(idleBytes.isEmpty)
      #expect(idleEnding == .closed)

      server.gate.open()
      let response = try await busy.response()
      #expect(response.status == 200)
      #expect(response.text == "released")
      #expect(response.header("Connection") == "close")
      #expect(await busy.readToEnd().ending == .closed)
      #expect(await server.finished.waited(), "run() should return once the last reply is out")
      await #expect(throws: TestConnection.Failure.self) { try await server.connect() }
    }
  }

  @Test func drainGivesUpAfterTheGraceTime() async throws {
    try await withServer({ $0.drainGrace = .milliseconds(200) }) { server in
      let busy = try await server.connect()
      await busy.send("GET /held HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(await server.gate.arrived.waited())
      server.server.stop()
      // Without the grace time, the held request would keep it running: it would not finish.
      #expect(await server.finished.waited())
      let (bytes, ending) = await busy.readToEnd()
      #expect(bytes.isEmpty, "the held request is dropped with its connection")
      #expect(ending == .closed || ending == .reset)
    }
  }

  @Test func clientLeavingDuringAsyncWorkDoesNotDisturbTheServer() async throws {
    try await withServer { server in
      do {
        let leaving = try await server.connect()
        await leaving.send("GET /held HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(await server.gate.arrived.waited())
      }  // closed here, while the responder waits
      server.gate.open()
      #expect(try await server.isHealthy())
      #expect(try await server.isHealthy())
    }
  }

  @Test func stopAndRunAreSafeInAnyOrder() async throws {
    var configuration = HTTPServerConfiguration()
    configuration.hosts = ["127.0.0.1"]
    configuration.port = 0
    configuration.handlesSignals = false
    let server = try HTTPServer(
      configuration: configuration, responder: TestResponder(gate: Gate())
    ) { _ in }
    server.stop()
    server.stop()
    let finished = Latch()
    startThread {
      server.run()  // drains at once: the stop came first
      server.run()  // returns at once: the loop is gone
      finished.signal()
    }
    #expect(await finished.waited())
    server.stop()  // after run() returned: nothing to do
  }

  @Test func portInUseIsReportedInOneLine() async throws {
    var configuration = HTTPServerConfiguration()
    configuration.hosts = ["127.0.0.1"]
    configuration.port = 0
    configuration.handlesSignals = false
    let first = try HTTPServer(configuration: configuration, responder: TestResponder(gate: Gate()))
    { _ in }
    configuration.port = first.port
    let error = #expect(throws: HTTPServerError.self) {
      _ = try HTTPServer(configuration: configuration, responder: TestResponder(gate: Gate())) {
        _ in
      }
    }
    #expect(error == .portInUse(host: "127.0.0.1", port: first.port))
    #expect(
      error?.description
        == "port \(first.port) on 127.0.0.1 is in use; stop the other server or pass --port with another port (0 picks a free one)"
    )
  }

  @Test func hostNameIsRefused() async throws {
    var configuration = HTTPServerConfiguration()
    configuration.hosts = ["127.0.0.1", "localhost"]
    configuration.port = 0
    let error = #expect(throws: HTTPServerError.self) {
      _ = try HTTPServer(configuration: configuration, responder: TestResponder(gate: Gate())) {
        _ in
      }
    }
    #expect(error == .notNumericAddress("localhost"))
    #expect(
      error?.description
        == "localhost is not a numeric address; pass an IP such as 127.0.0.1 or ::1")
  }

  @Test func outOfRangeLimitIsRefused() async throws {
    var configuration = HTTPServerConfiguration()
    configuration.port = 0
    configuration.requestTimeout = .zero
    #expect(
      throws: HTTPServerError.invalidConfiguration(
        setting: "requestTimeout", expected: "at least 1 ms")
    ) {
      _ = try HTTPServer(configuration: configuration, responder: TestResponder(gate: Gate())) {
        _ in
      }
    }
    configuration.requestTimeout = .seconds(1)
    configuration.workThreads = -1
    #expect(
      throws: HTTPServerError.invalidConfiguration(setting: "workThreads", expected: "0 to 256")
    ) {
      _ = try HTTPServer(configuration: configuration, responder: TestResponder(gate: Gate())) {
        _ in
      }
    }
  }

  @Test func accessLogHasOneEntryPerReplyWithoutTheQuery() async throws {
    try await withServer { server in
      let connection = try await server.connect()
      await connection.send("GET /query?token=secret&email=a%40b HTTP/1.1\r\nHost: t\r\n\r\n")
      _ = try await connection.response()
      await connection.send("POST /echo?x=1 HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi")
      _ = try await connection.response()
      await connection.send("HEAD /page HTTP/1.1\r\nHost: t\r\n\r\n")
      _ = try await connection.response(bodyless: true)
      let entries = server.log.all
      #expect(entries.map(\.method) == ["GET", "POST", "HEAD"])
      #expect(entries.map(\.path) == ["/query", "/echo", "/page"])
      #expect(entries.map(\.status) == [200, 201, 200])
      // Measured, not made up: a loaded machine may take long, never a minute.
      #expect(entries.allSatisfy { $0.duration >= .zero && $0.duration < .seconds(60) })
      #expect(entries.allSatisfy { $0.problem == nil })
    }
  }
}

/// Every startup error reads as one line: what was wrong; what would be right.
struct ErrorDescriptionTests {
  @Test(arguments: [
    HTTPServerError.portInUse(host: "::1", port: 9999),
    .cannotListen(host: "127.0.0.1", port: 80, reason: "Permission denied"),
    .cannotListen(host: "192.0.2.1", port: 9999, reason: "Cannot assign requested address"),
    .notNumericAddress("example.com"),
    .noHosts,
    .invalidConfiguration(setting: "maxConnections", expected: "at least 1"),
    .libevent("create an event base"),
  ])
  func descriptionIsOneLineWithAFix(error: HTTPServerError) {
    #expect(!error.description.contains("\n"))
    #expect(error.description.contains("; "))
  }

  @Test func listenFailureNamesTheFix() {
    #expect(
      HTTPServerError.cannotListen(host: "127.0.0.1", port: 80, reason: "Permission denied")
        .description
        == "cannot listen on 127.0.0.1:80: Permission denied; ports below 1024 need privileges;"
        + " pass --port 1024 or above (0 picks a free one)")
  }
}
