import Glibc
import Synchronization

/// A plain POSIX socket client: it sends exact bytes and reads exact bytes, so tests see what
/// the server really put on the wire. Every read is bounded by a timeout; the blocking calls
/// run through `onThread`.
final class TestConnection: Sendable {
  enum Failure: Error, Equatable {
    case cannotConnect(Int32)
    case timedOut(received: Int)
    case closedEarly(received: [UInt8])
    case malformed(String)
  }

  /// How a read to the end finished.
  enum Ending: Equatable, Sendable {
    case closed
    case reset
    case timedOut
  }

  let fd: Int32
  /// Bytes read past the last response (pipelining).
  private let unread = Mutex<[UInt8]>([])

  private init(fd: Int32) { self.fd = fd }

  deinit { close(fd) }

  /// Connects to `host` (numeric, IPv4 or IPv6) and `port`.
  static func open(port: UInt16, host: String = "127.0.0.1") async throws -> TestConnection {
    try await onThread { try connect(host: host, port: port) }
  }

  /// Connects on the calling thread, for tests whose first bytes must follow the connect at
  /// once: a server's deadline starts at its accept, and a new thread can take seconds to run
  /// on a loaded machine.
  static func openNow(port: UInt16, host: String = "127.0.0.1") throws -> TestConnection {
    try connect(host: host, port: port)
  }

  private static func connect(host: String, port: UInt16) throws -> TestConnection {
    let v6 = host.contains(":")
    let fd = socket(
      v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Failure.cannotConnect(errno) }
    let status: Int32
    if v6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      _ = inet_pton(AF_INET6, host, &address.sin6_addr)
      status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      _ = inet_pton(AF_INET, host, &address.sin_addr)
      status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    guard status == 0 else {
      let code = errno
      close(fd)
      throw Failure.cannotConnect(code)
    }
    return TestConnection(fd: fd)
  }

  /// Sends all of `text`; false when the peer has already closed.
  @discardableResult
  func send(_ text: String) async -> Bool {
    await send(bytes: Array(text.utf8))
  }

  /// Sends all of `bytes`; false when the peer has already closed.
  @discardableResult
  func send(bytes: [UInt8]) async -> Bool {
    await onThread { self.sendNow(bytes) }
  }

  /// Sends at once, blocking (for loops that already run on their own thread).
  func sendNow(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent <= 0 { return false }
      offset += sent
    }
    return true
  }

  /// Ends the sending side, as a client that sent a truncated request and gave up.
  func finishSending() {
    shutdown(fd, Int32(SHUT_WR))
  }

  /// Reads one response: status line, headers, and a body of its Content-Length (none when
  /// `bodyless`, for HEAD).
  func response(bodyless: Bool = false, timeout: Duration = .seconds(30)) async throws
    -> TestResponse
  {
    try await onThread { try self.readResponse(bodyless: bodyless, timeout: timeout) }
  }

  /// Reads until the server closes, resets, or `timeout` passes.
  func readToEnd(timeout: Duration = .seconds(30)) async -> (bytes: [UInt8], ending: Ending) {
    await onThread {
      var bytes = self.unread.withLock { unread in
        defer { unread.removeAll() }
        return unread
      }
      let deadline = ContinuousClock.now + timeout
      while true {
        switch self.receive(before: deadline) {
        case .data(let chunk): bytes += chunk
        case .closed: return (bytes, .closed)
        case .reset: return (bytes, .reset)
        case .timedOut: return (bytes, .timedOut)
        }
      }
    }
  }

  /// Waits up to `timeout` for the server to close, without sending anything; true when it
  /// did (blocking).
  func closedByPeer(within timeout: Duration) -> Bool {
    switch receive(before: ContinuousClock.now + timeout) {
    case .closed, .reset: true
    case .data, .timedOut: false
    }
  }

  private enum Chunk {
    case data([UInt8])
    case closed
    case reset
    case timedOut
  }

  private func receive(before deadline: ContinuousClock.Instant) -> Chunk {
    let left = deadline - ContinuousClock.now
    guard left > .zero else { return .timedOut }
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&entry, 1, Int32(max(1, left / .milliseconds(1))))
    guard ready == 1 else { return .timedOut }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count > 0 { return .data(Array(chunk[..<count])) }
    return count == 0 ? .closed : .reset
  }

  private func readResponse(bodyless: Bool, timeout: Duration) throws -> TestResponse {
    let deadline = ContinuousClock.now + timeout
    var bytes = unread.withLock { unread in
      defer { unread.removeAll() }
      return unread
    }
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    var bodyLength = 0
    while true {
      if headEnd == nil, let found = bytes.firstRange(of: separator) {
        headEnd = found.upperBound
        let head = try TestResponse(head: Array(bytes[..<found.lowerBound]))
        bodyLength = bodyless ? 0 : Int(head.header("content-length") ?? "0") ?? 0
      }
      if let headEnd, bytes.count >= headEnd + bodyLength {
        var response = try TestResponse(head: Array(bytes[..<(headEnd - 4)]))
        response.body = Array(bytes[headEnd..<(headEnd + bodyLength)])
        let rest = Array(bytes[(headEnd + bodyLength)...])
        unread.withLock { $0 = rest }
        return response
      }
      switch receive(before: deadline) {
      case .data(let chunk): bytes += chunk
      case .closed, .reset: throw Failure.closedEarly(received: bytes)
      case .timedOut: throw Failure.timedOut(received: bytes.count)
      }
    }
  }
}

/// A response as read off the wire.
struct TestResponse: Sendable {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: [UInt8] = []

  var text: String { String(decoding: body, as: UTF8.self) }

  /// The first header with this name, ignoring case.
  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Every header with this name, ignoring case.
  func headers(_ name: String) -> [String] {
    headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
  }

  init(head: [UInt8]) throws {
    let lines = String(decoding: head, as: UTF8.self).split(
      separator: "\r\n", omittingEmptySubsequences: false)
    guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1."),
      let code = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
    else { throw TestConnection.Failure.malformed(String(lines.first ?? "")) }
    status = code
    headers = lines.dropFirst().compactMap { line in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let value = line[line.index(after: colon)...].drop { $0 == " " }
      return (String(line[..<colon]), String(value))
    }
  }
}
