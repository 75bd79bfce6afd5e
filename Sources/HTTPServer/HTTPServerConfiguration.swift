/// Where the server listens and the limits that keep one client from starving the rest.
public struct HTTPServerConfiguration: Sendable {
  /// The numeric addresses to listen on. Host names are refused: a static executable has no
  /// name service (NSS) to resolve them.
  ///
  /// With exactly the defaults, `::1` is skipped on a machine without IPv6; an address given
  /// explicitly must bind.
  public var hosts: [String] = Self.defaultHosts
  /// The port on every host; 0 picks a free port, the same one on every host.
  public var port: UInt16 = 9999
  /// The largest body accepted. A longer `Content-Length`, or chunk sizes adding up to more,
  /// get a JSON 413 as soon as they arrive, and the connection closes.
  public var maxBodyBytes = 1 << 20
  /// The largest request head (request line, field lines and their CRLFs); a longer one gets a
  /// JSON 431 (414 while still in the request line), and the connection closes. It also bounds
  /// the chunk-size lines and CRLFs of a chunked body.
  public var maxHeaderBytes = 16 << 10
  /// How long a request may take to arrive whole, counted from the accept or from the end of
  /// the previous reply; also how long a reply may take to be read. An idle keep-alive
  /// connection, or a client sending one byte a second, is closed after it.
  public var requestTimeout: Duration = .seconds(10)
  /// Connections served at once. It is lowered to fit the open-file limit (see
  /// ``HTTPServer/connectionCap``).
  public var maxConnections = 1024
  /// Connections beyond ``maxConnections`` that still get a JSON 503 before they are closed;
  /// beyond these, new connections are closed at once without a reply.
  public var refusalSlots = 64
  /// The longest a refused connection is kept waiting for the request its 503 answers (never
  /// longer than ``requestTimeout``).
  public var refusalTimeout: Duration = .seconds(2)
  /// How long in-flight work may take to finish once the server stops.
  public var drainGrace: Duration = .seconds(5)
  /// Threads of the server's own that run responders' work: 0 runs it on Swift's global
  /// concurrent executor (a thread per core), right for work that computes or waits only on
  /// locks; more suits work that blocks waiting on the network, as a PostgreSQL store's calls
  /// do, so that a request waiting on the database leaves its core to another. Set it to the
  /// number of such waits that can happen at once (the store's connections).
  public var workThreads = 0
  /// Whether ``HTTPServer/run()`` drains on SIGINT and SIGTERM. Turn it off when several
  /// servers share a process (tests): libevent delivers signals to one event base only.
  public var handlesSignals = true

  /// The defaults: both loopback addresses, port 9999, the limits above.
  public init() {}

  /// Both loopback addresses; only with exactly these may `::1` be skipped on IPv4-only hosts.
  static let defaultHosts = ["127.0.0.1", "::1"]

  /// Checks the limits, so a typo becomes an error at startup rather than a server that
  /// refuses everything.
  func validate() throws(HTTPServerError) {
    if hosts.isEmpty { throw .noHosts }
    let checks: [(setting: String, valid: Bool, expected: String)] = [
      ("maxBodyBytes", maxBodyBytes >= 0, "0 or more bytes"),
      ("maxHeaderBytes", maxHeaderBytes >= 256, "at least 256 bytes"),
      ("requestTimeout", requestTimeout >= .milliseconds(1), "at least 1 ms"),
      ("maxConnections", maxConnections >= 1, "at least 1"),
      ("refusalSlots", refusalSlots >= 0, "0 or more"),
      ("drainGrace", drainGrace >= .zero, "0 or more"),
      ("workThreads", (0...256).contains(workThreads), "0 to 256"),
    ]
    if let failed = checks.first(where: { !$0.valid }) {
      throw .invalidConfiguration(setting: failed.setting, expected: failed.expected)
    }
  }
}

extension Duration {
  /// Whole milliseconds, rounded up so that a positive duration never becomes 0, and clamped
  /// to what libevent's timeval holds comfortably.
  var milliseconds: Int {
    let (seconds, attoseconds) = components
    guard seconds < 1 << 30 else { return 1 << 40 }  // about 34 years: forever, for a timeout
    let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int(clamping: max(millis, 0))
  }
}
