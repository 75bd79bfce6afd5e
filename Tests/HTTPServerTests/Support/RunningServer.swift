import HTTPServer
import Testing

/// A server running on its own thread for one test.
struct RunningServer: Sendable {
  let server: HTTPServer
  let gate: Gate
  let log: LogRecorder
  /// Signalled when `run()` has returned.
  let finished: Latch

  var port: UInt16 { server.port }

  /// A new connection to this server.
  func connect(host: String = "127.0.0.1") async throws -> TestConnection {
    try await TestConnection.open(port: port, host: host)
  }

  /// One `GET /health` on a fresh connection: the server still serves. The request is sent on
  /// the thread that connects, since a server with a short request timeout counts from its
  /// accept; a connection it closed unanswered (a loaded machine stalled it past that timeout)
  /// is tried again, three times at most.
  func isHealthy() async throws -> Bool {
    let port = port
    var attempt = 0
    while true {
      attempt += 1
      let connection = try await onThread { () throws -> TestConnection in
        let connection = try TestConnection.openNow(port: port)
        _ = connection.sendNow(Array("GET /health HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        return connection
      }
      do {
        let response = try await connection.response()
        return response.status == 200 && response.text == "ok"
      } catch TestConnection.Failure.closedEarly(let received) where received.isEmpty && attempt < 3
      {
        continue
      }
    }
  }
}

/// Starts a server on a free port of 127.0.0.1 (signals off: tests share one process), runs
/// `body`, then stops the server and checks that `run()` returned.
func withServer(
  _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
  _ body: (RunningServer) async throws -> Void
) async throws {
  var configuration = HTTPServerConfiguration()
  configuration.hosts = ["127.0.0.1"]
  configuration.port = 0
  configuration.handlesSignals = false
  // NB: the responder's work runs on Swift's shared pool, two threads on two cores; while
  // other suites' tests block both (waiting on the processes they run), a request waits too.
  // Ten seconds of that closed connections before they were answered; tests of the timeout
  // set their own.
  configuration.requestTimeout = .seconds(60)
  configure(&configuration)
  let gate = Gate()
  let log = LogRecorder()
  let server = try HTTPServer(configuration: configuration, responder: TestResponder(gate: gate)) {
    log.record($0)
  }
  let finished = Latch()
  startThread {
    server.run()
    finished.signal()
  }
  let running = RunningServer(server: server, gate: gate, log: log, finished: finished)
  defer {
    gate.open()
    server.stop()
  }
  try await body(running)
  gate.open()
  server.stop()
  let ended = await finished.waited(timeout: .seconds(10))
  #expect(ended, "run() did not return within 10 s of stop()")
}
