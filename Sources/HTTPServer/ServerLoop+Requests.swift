import CEvent

/// Requests in, replies out. Each request is copied into an ``HTTPRequest`` here, on the loop
/// thread, and each reply is copied into evhttp here too, whether it came from
/// the routing on the loop or from a Task through the mailbox.
extension ServerLoop {
  /// evhttp's request callback: a whole request has arrived.
  func handle(_ req: OpaquePointer) {
    let arrived = ContinuousClock.now
    guard let evcon = evhttp_request_get_connection(req), let connection = connections[evcon]
    else {
      // Never seen: adoption runs in the same loop pass as the accept.
      let path = RequestReader.path(of: req)
      let outcome = ReplyWriter.send(
        responder.refusal(.unexpectedFailure, path: path), to: req, isHead: false, closing: true,
        failure: failure(path: path))
      record(outcome, method: nil, path: path, arrived: arrived)
      return
    }
    disarm(connection)
    connection.phase = .busy
    // Only the framing check can have written this field: it refuses any client head with it.
    if connection.framing != nil, let refusal = Refusal(markedIn: req) {
      reply(
        responder.refusal(refusal.refused, path: nil), to: req, on: connection, method: nil,
        path: "-", arrived: arrived, refusal: refusal.reason)
      return
    }
    let path = RequestReader.path(of: req)
    guard let method = RequestReader.method(of: req) else {
      reply(
        responder.refusal(.unexpectedFailure, path: path), to: req, on: connection, method: nil,
        path: path, arrived: arrived)
      return
    }
    if connection.refused {
      reply(
        responder.refusal(.overConnectionLimit, path: path), to: req, on: connection,
        method: method, path: path, arrived: arrived)
      return
    }
    let request = RequestReader.request(req, method: method, peer: connection.peer)
    let work: @Sendable () async -> HTTPResponse
    switch responder.route(request) {
    case .answer(let response):
      reply(response, to: req, on: connection, method: method, path: path, arrived: arrived)
      return
    case .work(let found): work = found
    }
    lastJob += 1
    let job = lastJob
    let task = Task(executorPreference: workThreads) { [mailbox] in
      let response = await work()
      mailbox.post(Mailbox.Completion(job: job, response: response))
    }
    connection.job = job
    pending[job] = PendingReply(
      req: req, connection: connection, method: method, path: path, arrived: arrived, task: task)
  }

  /// The wake event: replies from Tasks, and a stop request, arrived in the mailbox. The stop
  /// goes first, so that a reply arriving with it already carries `Connection: close`.
  func deliverMail() {
    let delivery = mailbox.collect()
    if delivery.stopRequested { beginDrain() }
    for completion in delivery.completions {
      // Without an entry the connection closed while the Task ran: the reply is dropped.
      guard let waiting = pending.removeValue(forKey: completion.job) else { continue }
      reply(
        completion.response, to: waiting.req, on: waiting.connection, method: waiting.method,
        path: waiting.path, arrived: waiting.arrived)
    }
  }

  /// Sends a reply and restarts the connection's deadline, which now bounds a client that
  /// does not read it. A reply to a `refusal` (its reason, for the log) closes the connection.
  private func reply(
    _ response: HTTPResponse, to req: OpaquePointer, on connection: Connection,
    method: HTTPMethod?, path: String, arrived: ContinuousClock.Instant, refusal: String? = nil
  ) {
    connection.phase = .writing
    connection.job = nil
    arm(connection)
    evhttp_request_set_on_complete_cb(
      req, { req, context in if let req { ServerLoop.from(context).written(req) } }, context)
    var outcome = ReplyWriter.send(
      response, to: req, isHead: method == .head,
      closing: draining || connection.refused || refusal != nil, failure: failure(path: path))
    outcome.problem = outcome.problem ?? refusal
    record(outcome, method: method, path: path, arrived: arrived)
  }

  /// What a reply that cannot be sent as built becomes, in the responder's shape.
  private func failure(path: String) -> HTTPResponse {
    responder.refusal(.unexpectedFailure, path: path)
  }

  private func record(
    _ outcome: ReplyWriter.Outcome, method: HTTPMethod?, path: String,
    arrived: ContinuousClock.Instant
  ) {
    log(
      AccessLogEntry(
        method: method?.rawValue ?? "-", path: path, status: outcome.status,
        duration: ContinuousClock.now - arrived, problem: outcome.problem))
  }

  /// The reply was flushed (`evhttp_send_done`). evhttp still uses the connection after this
  /// callback, so it is never freed here: a draining server closes it from its deadline, which
  /// fires at once.
  private func written(_ req: OpaquePointer) {
    guard let evcon = evhttp_request_get_connection(req), let connection = connections[evcon]
    else { return }
    connection.phase = .idle
    arm(connection, after: draining ? .zero : nil)
  }
}
