import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Sends requests through the `authflow-http` helper process, which runs them with libcurl.
///
/// The helper is started on the first request and kept for the next ones; it is talked to over
/// a socket pair, one JSON line each way. A helper that dies or hangs is replaced on the next
/// request; this side never waits longer than the request's timeout plus a grace period.
public final class HelperProcessTransport: HTTPTransport {
  /// The helper executable.
  public let executable: String
  private let helper = Mutex<Helper?>(nil)
  /// Where the waits for the helper run: its threads may block, unlike the cooperative pool's.
  private let queue = DispatchQueue(label: "authflow-http")

  private struct Helper {
    var pid: pid_t
    var socket: Int32
    /// Bytes read and not yet consumed.
    var pending: [UInt8] = []
    /// How much of `pending` has been searched for a newline, so each byte is looked at once.
    var scanned = 0
    var nextID = 1
  }

  /// The longest answer line accepted: the largest body, base64-encoded, with room for JSON.
  static let maximumLineSize = HTTPResponse.maximumBodySize * 2

  /// How long past the request's timeout to wait for the helper to say it timed out.
  static let grace = 0.5

  /// The helper's process, while one runs.
  var processID: pid_t? { helper.withLock { $0?.pid } }

  /// A transport using the helper at `executable`.
  public init(executable: String) {
    self.executable = executable
  }

  /// `authflow-http` next to the running executable.
  public static func besideThisProgram() -> HelperProcessTransport {
    var buffer = [CChar](repeating: 0, count: 4_096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path =
      count > 0
      ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
      separator: "/")
    return HelperProcessTransport(executable: folder + "/authflow-http")
  }

  deinit {
    helper.withLock { helper in
      if let running = helper { Self.stop(running) }
    }
  }

  /// Sends `request` through the helper.
  ///
  /// The wait blocks a thread of the transport's own queue, never one of the cooperative pool
  /// that runs tasks: on one CPU that pool has one thread, and a blocked one starved whatever
  /// the answer waited for in this process (the shell's own emulator answered a second late,
  /// when the system added a thread). Cancelling the task ends the wait within 0.1 s.
  public func send(_ request: HTTPRequest, timeout: Double) async throws(TransportFailure)
    -> HTTPResponse
  {
    let cancelled = CancelFlag()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        queue.async {
          continuation.resume(returning: self.sendWaiting(request, timeout: timeout, cancelled))
        }
      }
    } onCancel: {
      cancelled.cancel()
    }
    return try result.get()
  }

  private func sendWaiting(_ request: HTTPRequest, timeout: Double, _ cancelled: CancelFlag)
    -> Result<HTTPResponse, TransportFailure>
  {
    helper.withLock { helper in
      do throws(TransportFailure) {
        var running: Helper
        if let existing = helper {
          running = existing
        } else {
          running = try start()
        }
        defer { helper = running }
        return .success(try exchange(request, timeout: timeout, cancelled, with: &running))
      } catch {
        if let running = helper { Self.stop(running) }
        helper = nil
        return .failure(error)
      }
    }
  }

  private func exchange(
    _ request: HTTPRequest, timeout: Double, _ cancelled: CancelFlag, with helper: inout Helper
  )
    throws(TransportFailure) -> HTTPResponse
  {
    let id = helper.nextID
    helper.nextID += 1
    guard let line = Bridge.encode(Bridge.Request(id: id, request: request, timeout: timeout))
    else {
      throw .unavailable("the request could not be encoded")
    }
    try Self.write(line, to: helper.socket)
    // The helper gives up at `timeout`; allow it a moment to say so before giving up on it.
    let deadline = monotonicNow() + timeout + Self.grace
    while true {
      if let newline = helper.pending[helper.scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        let message = Array(helper.pending[..<newline])
        helper.pending.removeFirst(newline + 1)
        helper.scanned = 0
        guard let answer = Bridge.decode(Bridge.Answer.self, from: message), answer.id == id else {
          throw .unavailable("the helper sent something unexpected")
        }
        if let response = answer.response { return response }
        throw answer.failure ?? .unavailable("the helper sent an empty answer")
      }
      if cancelled.isCancelled { throw .cancelled }
      let left = deadline - monotonicNow()
      if left <= 0 { throw .timedOut }
      var waiting = pollfd(fd: helper.socket, events: Int16(POLLIN), revents: 0)
      let ready = poll(&waiting, 1, Int32(min(left, 0.1) * 1_000) + 1)
      if ready < 0, errno == EINTR { continue }
      guard ready >= 0 else { throw .unavailable("waiting for the helper failed") }
      if ready == 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { recv(helper.socket, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw .unavailable("the helper stopped") }
      helper.scanned = helper.pending.count
      helper.pending += chunk.prefix(count)
      guard helper.pending.count <= Self.maximumLineSize else {
        throw .tooLarge(limit: HTTPResponse.maximumBodySize)
      }
    }
  }

  private func start() throws(TransportFailure) -> Helper {
    guard access(executable, X_OK) == 0 else {
      throw .unavailable("\(executable) is missing; build it with make run or swift build")
    }
    var sockets: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets)
        == 0
    else {
      throw .unavailable("no socket pair: \(String(cString: strerror(errno)))")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, sockets[1], 0)
    posix_spawn_file_actions_adddup2(&actions, sockets[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // NB: its own process group, so a Ctrl-C at the terminal (sent to the shell's group)
    // cancels the request instead of killing the helper under it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
    posix_spawnattr_setpgroup(&attributes, 0)
    // NB: until the child has its own group, a Ctrl-C reaches it too; it starts with SIGINT
    // blocked (this thread's too, meanwhile) and ignores it before unblocking.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &interrupt, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    // Only SIGINT: the calling thread may be a pool thread that blocks most signals, and a
    // helper that inherited that would not end on the SIGTERM that stops it.
    var childMask = interrupt
    posix_spawnattr_setsigmask(&attributes, &childMask)
    var pid: pid_t = 0
    let arguments = [strdup(executable), nil]
    defer { free(arguments[0]) }
    let status = posix_spawn(&pid, executable, &actions, &attributes, arguments, environ)
    close(sockets[1])
    guard status == 0 else {
      close(sockets[0])
      throw .unavailable("\(executable) could not start: \(String(cString: strerror(status)))")
    }
    return Helper(pid: pid, socket: sockets[0])
  }

  private static func write(_ bytes: [UInt8], to socket: Int32) throws(TransportFailure) {
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes {
        Glibc.send(
          socket, $0.baseAddress.map { $0 + offset }, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { throw .unavailable("the helper stopped") }
      offset += count
    }
  }

  private static func stop(_ helper: Helper) {
    close(helper.socket)
    kill(helper.pid, SIGTERM)
    var status: Int32 = 0
    waitpid(helper.pid, &status, 0)
  }
}

/// Whether the task waiting for an answer was cancelled, told to the thread that waits.
private final class CancelFlag: Sendable {
  private let flag = Atomic(false)

  var isCancelled: Bool { flag.load(ordering: .acquiring) }

  func cancel() { flag.store(true, ordering: .releasing) }
}

private func monotonicNow() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
