import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C, caught instead of killing the process: at the prompt it drops the line, during a
/// request it cancels the request.
enum Interrupts {
  /// Set by the signal handler; read and cleared by whoever is waiting.
  static let requested = Atomic<Bool>(false)

  /// Installs the SIGINT handler, without `SA_RESTART` so a blocked read returns `EINTR`.
  static func install() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      Interrupts.requested.store(true, ordering: .relaxed)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(SIGINT, &action, nil)
  }

  /// Whether Ctrl-C was pressed since the last call.
  static func take() -> Bool {
    requested.exchange(false, ordering: .relaxed)
  }
}

/// Reading the terminal a byte at a time, so a Ctrl-C is never missed: `poll` with a short
/// timeout re-checks the flag, whether the signal came during the wait or just before it.
///
/// NB: a Ctrl-C also flushes the terminal's input, so bytes `poll` saw can be gone by the time
/// `read` runs. Reads go through a second, non-blocking open of the same terminal, which never
/// blocks and leaves standard input's flags (shared with the parent shell) alone.
enum TerminalInput {
  static let descriptor: Int32 = {
    guard let name = ttyname(0) else { return 0 }
    let descriptor = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    return descriptor >= 0 ? descriptor : 0
  }()

  enum Byte {
    case byte(UInt8)
    case interrupted
    case end
    /// Nothing came before the deadline.
    case idle
  }

  /// The next byte; `.idle` when `deadline` passes first.
  static func next(before deadline: ContinuousClock.Instant? = nil) -> Byte {
    while true {
      if Interrupts.requested.load(ordering: .relaxed) { return .interrupted }
      if let deadline, ContinuousClock.now >= deadline { return .idle }
      var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&waiting, 1, 200)
      if ready < 0, errno == EINTR { continue }
      if ready < 0 { return .end }
      if ready == 0 { continue }
      var byte: UInt8 = 0
      let count = read(descriptor, &byte, 1)
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      return count == 1 ? .byte(byte) : .end
    }
  }
}
