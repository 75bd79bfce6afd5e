import CEvent

/// Connection counting and the per-connection deadline.
///
/// libevent 2.1's only per-connection hook before a whole request arrives is the bufferevent
/// callback, and it runs before the `evhttp_connection` exists. So each new bufferevent is kept
/// (with a reference) and adopted right after, in the same loop pass, by the adopt event.
extension ServerLoop {
  /// evhttp's bufferevent callback: makes the bufferevent of a just-accepted connection (it must
  /// have no fd yet; evhttp sets it) and queues it for adoption.
  func newBufferevent(_ base: OpaquePointer?) -> OpaquePointer? {
    guard let bev = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue))
    else { return nil }
    bufferevent_incref(bev)  // stays valid even if evhttp frees it before the adoption
    unadopted.append(bev)
    if unadopted.count == 1, let adoptEvent { event_active(adoptEvent, EV_TIMEOUT, 0) }
    return bev
  }

  /// The adopt event: finds each new connection (the argument evhttp gives its bufferevent's
  /// callbacks, an internal detail of 2.1.12's http.c), then serves, refuses or closes it.
  func adoptNew() {
    let bevs = unadopted
    unadopted.removeAll(keepingCapacity: true)
    for bev in bevs {
      defer { bufferevent_decref(bev) }
      guard let evcon = cevent_bufferevent_connection(bev) else { continue }  // already gone
      if draining {
        evhttp_connection_free(evcon)
      } else if serving < connectionCap {
        track(evcon, bufferevent: bev, refused: false)
      } else if refusing < configuration.refusalSlots {
        track(evcon, bufferevent: bev, refused: true)
      } else {
        evhttp_connection_free(evcon)  // a clean close (FIN), no reply
      }
    }
  }

  /// Starts serving (or refusing) a connection: its deadline, and the framing check in front of
  /// evhttp's parser. Adoption runs before the first read, so the check sees every byte.
  private func track(_ evcon: OpaquePointer, bufferevent: OpaquePointer, refused: Bool) {
    let connection = Connection(evcon: evcon, refused: refused, peer: Self.peer(of: evcon))
    guard
      let deadline = cevent_timer_new(
        base,
        { _, _, context in
          guard let context else { return }
          let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
          // Never free a request a responder holds; `disarm` has stopped this timer anyway.
          if connection.phase != .busy { evhttp_connection_free(connection.evcon) }
        }, Unmanaged.passUnretained(connection).toOpaque())
    else {
      evhttp_connection_free(evcon)  // no deadline, no protection from slow clients: refuse
      return
    }
    guard let framingScratch,
      let framing = RequestFraming(
        bufferevent: bufferevent, configuration: configuration, scratch: framingScratch)
    else {
      event_free(deadline)
      evhttp_connection_free(evcon)  // no framing check, no protection from lying clients
      return
    }
    connection.deadline = deadline
    connection.framing = framing
    connections[evcon] = connection
    if refused { refusing += 1 } else { serving += 1 }
    evhttp_connection_set_closecb(
      evcon, { evcon, context in if let evcon { ServerLoop.from(context).closed(evcon) } },
      context)
    arm(
      connection,
      after: refused ? min(configuration.refusalTimeout, configuration.requestTimeout) : nil)
  }

  /// Restarts the connection's deadline: the request timeout, or `delay`.
  func arm(_ connection: Connection, after delay: Duration? = nil) {
    guard let deadline = connection.deadline else { return }
    cevent_add_ms(deadline, (delay ?? configuration.requestTimeout).milliseconds)
  }

  /// Stops the deadline while a responder holds the request: evhttp reads nothing meanwhile,
  /// and freeing the connection would free the request under the responder.
  func disarm(_ connection: Connection) {
    if let deadline = connection.deadline { event_del(deadline) }
  }

  /// evhttp's close callback: called once from `evhttp_connection_free`, whoever frees it
  /// (timeout, EOF, error, `Connection: close`, a deadline, the drain).
  func closed(_ evcon: OpaquePointer) {
    guard let connection = connections.removeValue(forKey: evcon) else { return }
    connection.framing?.detach()
    connection.framing = nil
    if let deadline = connection.deadline { event_free(deadline) }
    connection.deadline = nil
    if connection.refused { refusing -= 1 } else { serving -= 1 }
    if let job = connection.job { pending.removeValue(forKey: job)?.task.cancel() }
    if draining && connections.isEmpty { event_base_loopexit(base, nil) }
  }

  /// `127.0.0.1:54321` or `[::1]:54321`, or `unknown` when libevent has no address.
  private static func peer(of evcon: OpaquePointer) -> String {
    var host = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    var port: UInt16 = 0
    let version = cevent_connection_peer(evcon, &host, socklen_t(host.count), &port)
    guard version > 0 else { return "unknown" }
    let text = String(
      decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return version == 6 ? "[\(text)]:\(port)" : "\(text):\(port)"
  }
}
