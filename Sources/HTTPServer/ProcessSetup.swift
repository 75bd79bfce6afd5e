import CEvent
import Glibc

/// Process-wide settings the server needs, made once before the first event base.
enum ProcessSetup {
  /// Whether libevent's pthread locking is on. It must be before `event_base_new()`, or
  /// `event_active` from a Task's thread would race with the loop. The settings:
  /// - SIGPIPE is ignored: libevent writes with `writev`, and a peer that closes mid-reply
  ///   would otherwise kill the process.
  /// - RLIMIT_NOFILE is raised to its hard limit: when `accept()` fails with EMFILE,
  ///   libevent's listener only logs, the socket stays readable, and the loop spins.
  static let threadsReady: Bool = {
    signal(SIGPIPE, SIG_IGN)
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    if getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max {
      limit.rlim_cur = limit.rlim_max
      _ = setrlimit(resource, &limit)
    }
    return evthread_use_pthreads() == 0
  }()

  /// The current open-file limit, or nil when it cannot be read or is unlimited.
  static var openFileLimit: Int? {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0,
      limit.rlim_cur != rlim_t.max  // RLIM_INFINITY
    else { return nil }
    return Int(clamping: limit.rlim_cur)
  }

  /// The connections the server may serve at once: the configured number, kept far enough
  /// below the open-file limit that the refusal slots, listeners and libevent's own
  /// descriptors (64 in all, generously) still fit.
  static func connectionCap(_ configuration: HTTPServerConfiguration) -> Int {
    guard let limit = openFileLimit else { return configuration.maxConnections }
    let room = limit - configuration.refusalSlots - 64
    return max(1, min(configuration.maxConnections, room))
  }
}
