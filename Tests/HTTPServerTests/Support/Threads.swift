import Glibc

/// Blocking work (socket reads, waits with a timeout) runs on its own thread, never on the
/// cooperative pool: that pool has one thread per core, and the server's responder Tasks need
/// it while a test waits for their replies.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    startThread { continuation.resume(returning: body()) }
  }
}

/// ``onThread(_:)`` for work that throws.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await onThread { Result { try body() } }.get()
}

/// Starts a detached pthread that runs `body`.
func startThread(_ body: @escaping @Sendable () -> Void) {
  let job = Unmanaged.passRetained(ThreadJob(body)).toOpaque()
  var thread = pthread_t()
  let status = pthread_create(
    &thread, nil,
    { raw in
      if let raw { Unmanaged<ThreadJob>.fromOpaque(raw).takeRetainedValue().body() }
      return nil
    }, job)
  if status == 0 {
    pthread_detach(thread)
  } else {
    Unmanaged<ThreadJob>.fromOpaque(job).takeRetainedValue().body()
  }
}

private final class ThreadJob: Sendable {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// A one-shot signal between threads that a waiter can bound with a timeout: `signal` writes a
/// byte into a pipe, `wait` polls its read end.
final class Latch: Sendable {
  private let readEnd: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  func signal() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Whether the latch was signalled within `timeout` (blocking; call it through `onThread`).
  func wait(timeout: Duration) -> Bool {
    var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, Int32(timeout / .milliseconds(1))) == 1
  }

  /// ``wait(timeout:)`` off the cooperative pool.
  func waited(timeout: Duration = .seconds(30)) async -> Bool {
    await onThread { self.wait(timeout: timeout) }
  }
}
