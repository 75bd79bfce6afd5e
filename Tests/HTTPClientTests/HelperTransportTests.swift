import Foundation
import Synchronization
import Testing

@testable import HTTPClient

/// The authflow-http helper against a local HTTP server on loopback (never the network).
@Suite(.serialized)
final class HelperTransportTests {
  let server: Process
  let port: Int
  let transport: HelperProcessTransport

  /// The `authflow-http` binary built beside this test bundle.
  static let helper: String = {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    return URL(fileURLWithPath: executable).deletingLastPathComponent()
      .appendingPathComponent("authflow-http").path
  }()

  static let serverCode = """
    import http.server, json, os, sys, time
    landed = 0
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args): pass
        def plain(self, status, data, headers=()):
            self.send_response(status)
            for name, value in headers: self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        def answer(self):
            global landed
            if self.path.startswith("/slow"):
                time.sleep(5)
            if self.path.startswith("/gate?"):
                # Says the request arrived, then answers once the test opens the gate.
                gate = self.path[len("/gate?"):]
                open(gate + ".arrived", "w").close()
                for _ in range(500):
                    if os.path.exists(gate): break
                    time.sleep(0.01)
            if self.path == "/framing":
                length = self.headers.get("Content-Length")
                self.rfile.read(int(length or 0))
                data = json.dumps({"method": self.command, "length": length or "none",
                    "expect": self.headers.get("Expect") or "none"}).encode()
                return self.plain(200, data, [("X-Twice", "a"), ("X-Twice", "b")])
            if self.path == "/redirect":
                return self.plain(302, b"{}", [("Location", "/landed")])
            if self.path == "/landed":
                landed += 1
            if self.path == "/landed-count":
                return self.plain(200, json.dumps({"landed": landed}).encode())
            if self.path == "/big":
                return self.plain(200, b"x" * (2 << 20))
            if self.path == "/big-unsized":
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"x" * (2 << 20))
                self.wfile.flush()
                self.close_connection = True
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode() if length else ""
            status = int(self.path.split("/")[2]) if self.path.startswith("/status/") else 200
            data = json.dumps({"method": self.command, "path": self.path, "body": body,
                "apikey": self.headers.get("apikey")}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("X-SB-Error-Code", "test_code")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        do_GET = do_POST = do_PUT = do_DELETE = answer
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """

  init() throws {
    server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    server.arguments = ["-c", Self.serverCode]
    let output = Pipe()
    server.standardOutput = output
    try server.run()
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    transport = HelperProcessTransport(executable: Self.helper)
  }

  deinit {
    // NB: waitUntilExit spins a run loop, which hangs in a deinit under Swift Testing.
    kill(server.processIdentifier, SIGKILL)
  }

  private func request(_ method: String, _ path: String, body: String? = nil, port: Int? = nil)
    -> HTTPRequest
  {
    HTTPRequest(
      method: method, url: "http://127.0.0.1:\(port ?? self.port)\(path)",
      headers: [
        HTTPRequest.Header("apikey", "k"), HTTPRequest.Header("Content-Type", "application/json"),
      ],
      body: body.map { Data($0.utf8) })
  }

  @Test func requestsGoOutAndAnswersComeBack() async throws {
    #expect(port > 0)
    let first = try await transport.send(
      request("POST", "/token?grant_type=password", body: #"{"a":1}"#), timeout: 5)
    #expect(first.status == 200)
    #expect(first.headers["x-sb-error-code"] == "test_code")
    let echo = try JSONSerialization.jsonObject(with: first.body) as? [String: String]
    #expect(
      echo == [
        "method": "POST", "path": "/token?grant_type=password", "body": #"{"a":1}"#, "apikey": "k",
      ])

    let second = try await transport.send(request("PUT", "/status/422", body: "{}"), timeout: 5)
    #expect(second.status == 422, "error statuses are answers, not failures")
    let third = try await transport.send(request("GET", "/user"), timeout: 5)
    #expect(third.status == 200)
  }

  @Test func requestsAreFramedAsSentAndAnswersReadAsGiven() async throws {
    func framing(_ method: String, body: String? = nil) async throws -> [String: String] {
      let response = try await transport.send(request(method, "/framing", body: body), timeout: 5)
      #expect(response.headers["x-twice"] == "a, b", "a repeated field is joined")
      return try #require(
        try JSONSerialization.jsonObject(with: response.body) as? [String: String])
    }
    // A POST without a body says it has none, as GoTrue's logout is sent.
    #expect(try await framing("POST") == ["method": "POST", "length": "0", "expect": "none"])
    // A body past curl's threshold (1 MiB) goes at once: no "Expect: 100-continue" to wait on,
    // which a server that never answers it turns into a second's delay.
    let large = String(repeating: "x", count: (1 << 20) + 1)
    #expect(
      try await framing("PUT", body: large) == [
        "method": "PUT", "length": "\((1 << 20) + 1)", "expect": "none",
      ])
    #expect(
      try await framing("DELETE") == ["method": "DELETE", "length": "none", "expect": "none"])
    #expect(try await framing("GET") == ["method": "GET", "length": "none", "expect": "none"])
  }

  @Test func onlyHTTPAndHTTPSAreFetched() async throws {
    let file = HTTPRequest(method: "GET", url: "file:///etc/hostname", headers: [], body: nil)
    do {
      _ = try await transport.send(file, timeout: 5)
      Issue.record("a file: URL was fetched")
    } catch {
      guard case .unreachable(let reason) = error else {
        Issue.record("expected unreachable, got \(error)")
        return
      }
      #expect(reason.contains("file"), "\(reason)")
    }
    let garbage = HTTPRequest(method: "GET", url: "http://[not a url", headers: [], body: nil)
    await #expect(throws: TransportFailure.unavailable("not a URL: http://[not a url")) {
      try await transport.send(garbage, timeout: 5)
    }
  }

  @Test func aSlowServerTimesOut() async throws {
    let start = Date()
    let transport = self.transport
    let slow = request("GET", "/slow")
    await #expect(throws: TransportFailure.timedOut) {
      try await transport.send(slow, timeout: 1)
    }
    // The timeout is the whole exchange, not the timeout plus a grace of seconds.
    #expect(Date().timeIntervalSince(start) < 2.5)
    // The transport recovers for the next request.
    #expect(try await transport.send(request("GET", "/after"), timeout: 5).status == 200)
  }

  @Test func waitingForAnAnswerKeepsNoCPUBusy() async throws {
    _ = try await transport.send(request("GET", "/"), timeout: 5)
    let helper = try #require(transport.processID)
    let transport = self.transport
    let slow = request("GET", "/slow")
    let waiting = Task { try await transport.send(slow, timeout: 3) }
    // The helper's CPU time over one second of waiting for the answer.
    // NB: read from a thread of its own, as cancellingStopsTheWait says why.
    let spent = Mutex<Double?>(nil)
    let measured = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 0.3)
      let before = Self.cpuSeconds(of: helper)
      Thread.sleep(forTimeInterval: 1)
      let after = Self.cpuSeconds(of: helper)
      spent.withLock { $0 = zip(before, after).map { $1 - $0 }.first }
      measured.signal()
      waiting.cancel()
    }
    _ = try? await waiting.value
    measured.wait()
    // NB: a busy loop spends most of the second on the CPU (URLSession spent 0.8 s of it); a
    // wait in poll spends milliseconds, however loaded the machine.
    let cpu = try #require(spent.withLock { $0 })
    #expect(cpu < 0.3)
  }

  /// The user and system CPU time of process `pid` so far, from `/proc`.
  static func cpuSeconds(of pid: pid_t) -> [Double] {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 12,
      let user = Int(fields[11]), let system = Int(fields[12])
    else { return [] }
    return [Double(user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))]
  }

  @Test func waitingLeavesTheCallersThreadFree() async throws {
    // Everything here runs on one thread; the server answers only once a second task on that
    // thread has seen the request arrive. A wait that held the thread would time out.
    let gate = NSTemporaryDirectory() + "authflow-gate-" + UUID().uuidString
    defer {
      unlink(gate)
      unlink(gate + ".arrived")
    }
    let transport = self.transport
    let gated = request("GET", "/gate?" + gate)
    let status = try await withTaskExecutorPreference(OneThreadExecutor()) {
      async let answer = transport.send(gated, timeout: 3)
      async let opened: Bool = {
        for _ in 0..<300 {
          if access(gate + ".arrived", F_OK) == 0 {
            return FileManager.default.createFile(atPath: gate, contents: nil)
          }
          try? await Task.sleep(for: .milliseconds(10))
        }
        return false
      }()
      #expect(await opened)
      return try await answer.status
    }
    #expect(status == 200)
  }

  @Test func redirectsAreAnswersNotFollowed() async throws {
    let response = try await transport.send(request("GET", "/redirect"), timeout: 5)
    #expect(response.status == 302)
    #expect(response.headers["location"] == "/landed")
    let count = try await transport.send(request("GET", "/landed-count"), timeout: 5)
    #expect(String(decoding: count.body, as: UTF8.self) == #"{"landed": 0}"#)
  }

  @Test(arguments: ["/big", "/big-unsized"])
  func bodiesOverOneMebibyteAreRefused(path: String) async throws {
    await #expect(throws: TransportFailure.tooLarge(limit: HTTPResponse.maximumBodySize)) {
      try await self.transport.send(self.request("GET", path), timeout: 10)
    }
    #expect(try await transport.send(request("GET", "/after"), timeout: 5).status == 200)
  }

  @Test func theHelperRunsInItsOwnProcessGroup() async throws {
    _ = try await transport.send(request("GET", "/"), timeout: 5)
    let helper = try #require(transport.processID)
    #expect(getpgid(helper) == helper, "Ctrl-C at the terminal does not reach it")
    #expect(getpgid(helper) != getpgrp())
  }

  @Test func aRefusedConnectionIsUnreachable() async throws {
    // A port that was just free: bind, read the number, close.
    let closed = Self.freePort()
    do {
      _ = try await transport.send(request("GET", "/", port: closed), timeout: 5)
      Issue.record("expected a failure")
    } catch {
      guard case .unreachable = error else {
        Issue.record("expected unreachable, got \(error)")
        return
      }
    }
  }

  @Test func cancellingStopsTheWait() async throws {
    let transport = self.transport
    let slow = request("GET", "/slow")
    let task = Task { try await transport.send(slow, timeout: 10) }
    // NB: cancelled from a thread of its own: the wait blocks a thread of the shared pool, and
    // when the rest of the tests hold the others, a sleeping test body resumes too late.
    let cancelledAt = Mutex<Date?>(nil)
    Thread.detachNewThread {
      Thread.sleep(forTimeInterval: 0.3)
      cancelledAt.withLock { $0 = Date() }
      task.cancel()
    }
    await #expect(throws: TransportFailure.cancelled) { try await task.value }
    let start = try #require(cancelledAt.withLock { $0 })
    #expect(Date().timeIntervalSince(start) < 1)
  }

  @Test func aMissingHelperSaysSo() async {
    let missing = HelperProcessTransport(executable: "/nonexistent/authflow-http")
    do {
      _ = try await missing.send(request("GET", "/"), timeout: 1)
      Issue.record("expected a failure")
    } catch {
      #expect(
        error
          == .unavailable(
            "/nonexistent/authflow-http is missing; build it with make run or swift build"))
      #expect(error.description.hasPrefix("the HTTP transport is unavailable"))
    }
  }

  @Test func messagesRoundTrip() throws {
    let message = Bridge.Request(id: 7, request: request("POST", "/x", body: "é"), timeout: 2.5)
    let line = try #require(Bridge.encode(message))
    #expect(line.last == UInt8(ascii: "\n"))
    #expect(!line.dropLast().contains(UInt8(ascii: "\n")))
    #expect(Bridge.decode(Bridge.Request.self, from: Array(line.dropLast())) == message)
    #expect(Bridge.decode(Bridge.Answer.self, from: Array("junk".utf8)) == nil)
  }

  private static func freePort() -> Int {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        _ = bind(socket, pointer, length)
        return getsockname(socket, pointer, &length)
      }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// Runs every job on one serial queue: one thread at a time, as the cooperative pool on one CPU.
private final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
  private let queue = DispatchQueue(label: "one-thread")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
