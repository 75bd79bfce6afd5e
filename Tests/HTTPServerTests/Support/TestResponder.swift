import HTTPServer
import Synchronization

/// The routes the tests talk to. Immediate ones answer on the loop; the rest go through Tasks.
struct TestResponder: HTTPResponder {
  /// Holds `GET /held` until a test opens it.
  let gate: Gate
  /// Holds each `GET /together` until eight have arrived.
  let meeting = Meeting(size: 8)

  func route(_ request: HTTPRequest) -> HTTPRoute {
    if let answer = immediateResponse(to: request) { return .answer(answer) }
    return .work { await respond(to: request) }
  }

  /// The server's own refusals, as a JSON error naming the kind, the status and the reason
  /// (so the tests see that the responder words them, and what the server told it).
  func refusal(_ refusal: ServerRefusal, path: String?) -> HTTPResponse {
    let code = refusal.kind.rawValue
    let json = #"{"code":\#(refusal.status),"error_code":"\#(code)","msg":"\#(refusal.reason)"}"#
    return HTTPResponse(
      status: refusal.status, headers: [("Content-Type", "application/json")],
      body: Array(json.utf8))
  }

  private func immediateResponse(to request: HTTPRequest) -> HTTPResponse? {
    switch (request.method, request.path) {
    case (.get, "/health"): text(200, "ok")
    case (.get, "/page"), (.head, "/page"): text(200, "0123456789")
    case (.get, "/query"):
      text(200, request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "\n"))
    case (.get, "/peer"): text(200, request.peer)
    case (.get, "/headers"):
      HTTPResponse(
        status: 200,
        headers: [
          ("X-Echo", request.header("X-TEST") ?? "-"),
          ("X-Authorization", request.header("authorization") ?? "-"),
          ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"),
        ])
    case (.get, "/redirect"): HTTPResponse(status: 303, headers: [("Location", "/target")])
    case (.get, "/crlf"):
      HTTPResponse(status: 303, headers: [("Location", "/x\r\nSet-Cookie: evil=1")])
    case (.get, "/folded"): HTTPResponse(status: 200, headers: [("X-Folded", "a\r\n b")])
    case (.get, "/bad-status"): HTTPResponse(status: 42)
    default: nil
    }
  }

  @concurrent private func respond(to request: HTTPRequest) async -> HTTPResponse {
    switch (request.method, request.path) {
    case (.post, "/echo"):
      return HTTPResponse(
        status: 201, headers: [("Content-Type", "text/plain")], body: request.body)
    case (.get, "/held"):
      await gate.pass()
      return text(200, "released")
    case (.get, "/together"):
      // Blocks its thread, as a call waiting on a database does: the requests meet only when
      // each has a thread of its own.
      return text(200, meeting.arrive() ? "met" : "alone")
    default:
      return text(404, "no route \(request.method.rawValue) \(request.path)")
    }
  }

  private func text(_ status: Int, _ body: String) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "text/plain")], body: Array(body.utf8))
  }
}

/// Holds responders until a test opens it, and tells the test when one has arrived.
final class Gate: Sendable {
  private struct State {
    var open = false
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  /// Signalled each time a responder reaches the gate.
  let arrived = Latch()
  private let state = Mutex(State())

  /// Waits until the gate is open (from a responder).
  func pass() async {
    arrived.signal()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let openAlready = state.withLock { state in
        if !state.open { state.waiting.append(continuation) }
        return state.open
      }
      if openAlready { continuation.resume() }
    }
  }

  /// Lets every waiting and future responder through.
  func open() {
    let waiting = state.withLock { state in
      state.open = true
      defer { state.waiting.removeAll() }
      return state.waiting
    }
    waiting.forEach { $0.resume() }
  }
}

/// Collects the access log, which the server writes on its loop thread.
final class LogRecorder: Sendable {
  private let entries = Mutex<[AccessLogEntry]>([])

  func record(_ entry: AccessLogEntry) {
    entries.withLock { $0.append(entry) }
  }

  var all: [AccessLogEntry] { entries.withLock { $0 } }
}

/// Callers that block their threads until `size` of them have arrived, or ten seconds passed.
final class Meeting: Sendable {
  let size: Int
  private let arrived = Mutex(0)
  private let everyone = Latch()

  init(size: Int) { self.size = size }

  /// Blocks until `size` callers have arrived (true), or for ten seconds (false).
  func arrive() -> Bool {
    let count = arrived.withLock { count in
      count += 1
      return count
    }
    if count == size { everyone.signal() }
    return everyone.wait(timeout: .seconds(10))
  }
}
