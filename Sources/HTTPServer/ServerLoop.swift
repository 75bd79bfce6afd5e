import CEvent
import Glibc

/// Everything that lives on the event-loop thread: the event base, evhttp, the connection
/// table, and the requests that wait for a Task's reply.
///
/// It is not Sendable. ``HTTPServer`` keeps it in a Mutex until one `run()` takes it out; from
/// then on only the thread running the loop touches it, and no libevent pointer leaves that
/// thread (Tasks get ``HTTPRequest`` values and answer through the ``Mailbox``). C callbacks
/// find it through their `void *` argument, unretained: `run()` holds it until the loop has
/// ended, and `deinit` frees every callback source before the object goes.
final class ServerLoop {
  /// A request whose reply a Task is computing.
  struct PendingReply {
    var req: OpaquePointer
    var connection: Connection
    var method: HTTPMethod
    var path: String
    var arrived: ContinuousClock.Instant
    var task: Task<Void, Never>
  }

  let configuration: HTTPServerConfiguration
  /// ``HTTPServerConfiguration/maxConnections``, fitted under the open-file limit.
  let connectionCap: Int
  let responder: any HTTPResponder
  let log: @Sendable (AccessLogEntry) -> Void
  let mailbox = Mailbox()
  /// Where responders' work runs, when not on the global executor.
  let workThreads: WorkThreads?
  let base: OpaquePointer
  let http: OpaquePointer
  /// The empty buffer every connection's ``RequestFraming`` borrows to move bytes around.
  let framingScratch: OpaquePointer?

  private(set) var port: UInt16 = 0
  private(set) var addresses: [String] = []
  /// The `evhttp_bound_socket`s, removed when draining starts.
  var boundSockets: [OpaquePointer] = []
  /// The event that adopts connections accepted in this loop pass.
  var adoptEvent: OpaquePointer?
  var signalEvents: [OpaquePointer] = []

  var connections: [OpaquePointer: Connection] = [:]
  var serving = 0
  var refusing = 0
  /// Bufferevents handed to evhttp whose connection is not adopted yet (each holds a reference).
  var unadopted: [OpaquePointer] = []
  var pending: [UInt64: PendingReply] = [:]
  var lastJob: UInt64 = 0
  var draining = false

  /// Creates the loop and binds its listeners, so the port is known before `run()`.
  static func make(
    configuration: HTTPServerConfiguration, responder: any HTTPResponder,
    log: @escaping @Sendable (AccessLogEntry) -> Void
  ) throws(HTTPServerError) -> ServerLoop {
    try configuration.validate()
    // NB: evthread_use_pthreads() must run before event_base_new(), or event_active from a
    // Task's thread races with the loop.
    guard ProcessSetup.threadsReady else { throw .libevent("turn on its pthread locking") }
    guard let base = cevent_base_new_uncached() else { throw .libevent("create an event base") }
    guard let http = evhttp_new(base) else {
      event_base_free(base)
      throw .libevent("create an HTTP server")
    }
    let loop = ServerLoop(
      configuration: configuration, responder: responder, log: log, base: base, http: http)
    try loop.setUp()  // on failure, deinit frees what was made
    // Watched from now, not from `run()`: a SIGTERM sent as soon as the caller says it is
    // ready (between here and the loop) waits for the loop and drains, instead of killing.
    if configuration.handlesSignals { loop.watchSignals() }
    return loop
  }

  private init(
    configuration: HTTPServerConfiguration, responder: any HTTPResponder,
    log: @escaping @Sendable (AccessLogEntry) -> Void, base: OpaquePointer, http: OpaquePointer
  ) {
    self.configuration = configuration
    self.connectionCap = ProcessSetup.connectionCap(configuration)
    self.responder = responder
    workThreads =
      configuration.workThreads > 0 ? WorkThreads.shared(atLeast: configuration.workThreads) : nil
    self.log = log
    self.base = base
    self.http = http
    // NB: evhttp keeps this pointer without copying the string, so it must outlive evhttp.
    self.framingScratch = evbuffer_new()
  }

  private func setUp() throws(HTTPServerError) {
    evhttp_set_max_body_size(http, configuration.maxBodyBytes)
    evhttp_set_max_headers_size(http, configuration.maxHeaderBytes)
    // Read and write inactivity only: a byte a second restarts it. The deadline timer of each
    // connection bounds the whole request.
    var stall = Self.timeval(milliseconds: configuration.requestTimeout.milliseconds)
    evhttp_set_timeout_tv(http, &stall)
    // NB: no EVHTTP_SERVER_LINGERING_CLOSE: with it, libevent reads a whole declared body
    // before its 413 (a 99 GB one until the timeout). The framing check answers 413 as soon
    // as the head arrives, so libevent's limits above are only a backstop.
    guard framingScratch != nil else { throw .libevent("create a buffer") }
    // Methods outside this set would get libevent's HTML 501; the framing check refuses them
    // first, with chi's 405, so these all reach the responder.
    evhttp_set_allowed_methods(http, HTTPMethod.allowedMask)
    // No type for a reply without a body (the reply writer types the others).
    evhttp_set_default_content_type(http, nil)
    evhttp_set_gencb(
      http, { req, context in if let req { ServerLoop.from(context).handle(req) } }, context)
    evhttp_set_bevcb(
      http, { base, context in ServerLoop.from(context).newBufferevent(base) }, context)

    guard
      let adopt = cevent_timer_new(
        base, { _, _, context in ServerLoop.from(context).adoptNew() }, context),
      let wake = cevent_timer_new(
        base, { _, _, context in ServerLoop.from(context).deliverMail() }, context)
    else { throw .libevent("create its internal events") }
    adoptEvent = adopt
    mailbox.open(wake: wake)

    let listeners = try Listeners.bind(configuration, on: base)
    port = listeners.port
    addresses = listeners.addresses
    for socket in listeners.sockets {
      guard let bound = evhttp_bind_listener(http, socket) else {
        evconnlistener_free(socket)
        throw .libevent("accept connections on a listener")
      }
      boundSockets.append(bound)
    }
  }

  /// Serves until a stop request or a signal has drained the connections, or the grace time
  /// has passed. The caller then drops the loop, and `deinit` frees everything.
  func run() {
    event_base_dispatch(base)
  }

  deinit {
    // Tasks still running get cancelled; their replies are dropped by the closed mailbox.
    for reply in pending.values { reply.task.cancel() }
    pending.removeAll()
    if let wake = mailbox.close() { event_free(wake) }
    // evhttp_free frees the remaining connections; detach them first so that no close
    // callback reaches this object while it goes away.
    for connection in connections.values {
      connection.framing?.detach()
      evhttp_connection_set_closecb(connection.evcon, nil, nil)
      if let deadline = connection.deadline { event_free(deadline) }
    }
    connections.removeAll()
    evhttp_free(http)
    unadopted.forEach { bufferevent_decref($0) }
    if let adoptEvent { event_free(adoptEvent) }
    signalEvents.forEach { event_free($0) }
    event_base_free(base)
    if let framingScratch { evbuffer_free(framingScratch) }
  }

  // MARK: C callback plumbing

  /// This loop as the `void *` argument of a C callback (unretained; see the type's comment).
  var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// The loop behind a C callback's argument; every callback is registered with ``context``.
  static func from(_ context: UnsafeMutableRawPointer?) -> ServerLoop {
    guard let context else { preconditionFailure("libevent callback without its context") }
    return Unmanaged<ServerLoop>.fromOpaque(context).takeUnretainedValue()
  }

  static func timeval(milliseconds: Int) -> Glibc.timeval {
    Glibc.timeval(tv_sec: milliseconds / 1000, tv_usec: milliseconds % 1000 * 1000)
  }
}
