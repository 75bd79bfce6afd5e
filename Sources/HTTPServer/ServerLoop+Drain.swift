import CEvent
import Glibc

/// Stopping: a drain that lets in-flight work finish, bounded by the grace time.
extension ServerLoop {
  /// Adds SIGINT and SIGTERM as libevent signal events, so their handling runs on the loop
  /// thread like everything else.
  func watchSignals() {
    // A parent may have started the process with these blocked (a test runner's threads block
    // most signals, and children inherit the mask); unblocked here, the loop's thread takes
    // them, so the server still stops when asked.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigaddset(&unblocked, SIGINT)
    sigaddset(&unblocked, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    for signal in [SIGINT, SIGTERM] {
      guard
        let event = cevent_signal_new(
          base, signal, { _, _, context in ServerLoop.from(context).signalled() }, context)
      else { continue }
      event_add(event, nil)
      signalEvents.append(event)
    }
  }

  /// The first signal drains; a second one leaves the loop at once.
  private func signalled() {
    if draining {
      event_base_loopbreak(base)
    } else {
      beginDrain()
    }
  }

  /// Stops accepting, closes the connections that wait for a request, and lets the ones with a
  /// request in flight finish: their replies carry `Connection: close`, and the loop ends when
  /// the last connection goes, or after the grace time.
  func beginDrain() {
    guard !draining else { return }
    draining = true
    responder.draining()
    boundSockets.forEach { evhttp_del_accept_socket(http, $0) }  // new connects are refused
    boundSockets.removeAll()
    for connection in Array(connections.values) where connection.phase == .idle {
      evhttp_connection_free(connection.evcon)
    }
    if connections.isEmpty {
      event_base_loopexit(base, nil)
    } else {
      cevent_loopexit_ms(base, configuration.drainGrace.milliseconds)
    }
  }
}
