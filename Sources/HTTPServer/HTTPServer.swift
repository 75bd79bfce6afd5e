import Synchronization

/// An HTTP/1.1 server on libevent's evhttp: one event-loop thread reads requests and writes
/// replies, and a responder answers either on that thread (cheap routes) or in a Task.
///
/// ```swift
/// let server = try HTTPServer(configuration: configuration, responder: routes) { entry in
///   print(entry.method, entry.path, entry.status)
/// }
/// print("listening on", server.addresses)
/// server.run()  // until stop(), SIGINT or SIGTERM, then drains
/// ```
///
/// It is Sendable without `@unchecked`: every libevent pointer lives in the loop object, which
/// sits in a Mutex until ``run()`` takes it to the calling thread, and stays on that thread
/// until it is freed. Other threads reach the loop only through the mailbox, which ``stop()``
/// uses.
public final class HTTPServer: Sendable {
  /// Where the server listens: `127.0.0.1:9999`, `[::1]:9999`.
  public let addresses: [String]
  /// The port on every host; the chosen one when the configuration asked for 0.
  public let port: UInt16
  /// The connections served at once: the configured maximum, lowered when the open-file limit
  /// (raised to its hard limit at the first start) leaves less room.
  public let connectionCap: Int

  private let mailbox: Mailbox
  /// The loop until ``run()`` takes it; nil afterwards.
  private let loop: Mutex<ServerLoop?>

  /// Sets up libevent and binds every host, so ``port`` and ``addresses`` are known before
  /// ``run()``.
  ///
  /// The first server in a process also ignores SIGPIPE (a peer closing mid-reply must not kill
  /// the process) and raises the open-file limit to its hard limit.
  /// - Parameters:
  ///   - configuration: Hosts, port and limits.
  ///   - responder: Answers every request that reaches the server.
  ///   - log: Called on the loop thread once per reply sent; it must be quick.
  public init(
    configuration: HTTPServerConfiguration, responder: some HTTPResponder,
    log: @escaping @Sendable (AccessLogEntry) -> Void
  ) throws(HTTPServerError) {
    let loop = try ServerLoop.make(configuration: configuration, responder: responder, log: log)
    addresses = loop.addresses
    port = loop.port
    connectionCap = loop.connectionCap
    mailbox = loop.mailbox
    self.loop = Mutex(loop)
  }

  /// Runs the event loop on the calling thread until ``stop()``, SIGINT or SIGTERM (a second
  /// signal leaves at once), then drains: no new connections, idle ones closed, in-flight
  /// replies sent with `Connection: close` within the configured grace time. Returns when the
  /// loop has ended and its resources are freed; a second call returns at once.
  public func run() {
    guard let loop = loop.withLock({ $0.take() }) else { return }
    loop.run()
  }

  /// Asks the server to drain and stop, from any thread; calling it again, or after ``run()``
  /// returned, does nothing. Before ``run()``, it makes the coming run drain at once.
  public func stop() {
    mailbox.requestStop()
  }
}
