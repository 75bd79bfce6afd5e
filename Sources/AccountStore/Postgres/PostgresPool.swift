#if canImport(Glibc)
  import Glibc
#endif

/// Up to `size` connections to one database, each lent to one caller at a time.
///
/// Connections open when first needed. A caller finding none free waits, at most until its
/// deadline, for one to come back. A connection that broke (the link failed, the server ended
/// it, or it was found ended while idle) is closed and replaced by a new one on the next loan.
/// Guarded by a default pthread mutex and condition, as `DatabaseLock` is, on the monotonic
/// clock.
package final class PostgresPool: @unchecked Sendable {
  // @unchecked: `idle` and `open` are only touched between lock and unlock of `mutex`; a
  // connection is used by one caller at a time, the one it is lent to.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let returned: UnsafeMutablePointer<pthread_cond_t>
  private var idle: [PostgresConnection] = []
  private var open = 0
  private var waiting = 0

  /// Where the connections go.
  package let url: PostgresURL
  /// The most connections open at once.
  package let size: Int
  private let connectTimeout: Int

  /// A pool of at most `size` connections to `url`; none opens before the first loan.
  package init(url: PostgresURL, size: Int, connectTimeout: Int = 10) {
    self.url = url
    self.size = max(size, 1)
    self.connectTimeout = connectTimeout
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    returned = .allocate(capacity: 1)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(returned, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    idle.removeAll()
    pthread_cond_destroy(returned)
    returned.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Connections open now, lent or idle.
  package var openCount: Int {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return open
  }

  /// Callers waiting for a connection now.
  package var waiters: Int {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return waiting
  }

  /// Runs `body` with a connection of the pool, waiting at most `wait` seconds for one to be
  /// free; none free by then is `.unavailable`. A transaction `body` left open is rolled back
  /// before the connection goes back.
  @discardableResult
  package func withConnection<T>(
    waitingAtMost wait: Double = 5, _ body: (PostgresConnection) throws(AccountStoreError) -> T
  ) throws(AccountStoreError) -> T {
    let connection = try borrow(deadline: Self.now() + max(wait, 0))
    defer { giveBack(connection) }
    return try body(connection)
  }

  private func borrow(deadline: Double) throws(AccountStoreError) -> PostgresConnection {
    pthread_mutex_lock(mutex)
    while true {
      while let connection = idle.popLast() {
        guard connection.hasEnded() else {
          pthread_mutex_unlock(mutex)
          return connection
        }
        open -= 1
      }
      if open < size { break }
      var until = Self.timespec(deadline)
      waiting += 1
      let status = pthread_cond_timedwait(returned, mutex, &until)
      waiting -= 1
      if status == ETIMEDOUT, idle.isEmpty, open >= size {
        pthread_mutex_unlock(mutex)
        throw AccountStoreError(
          .unavailable, "no PostgreSQL connection came free in time (all \(size) are in use)")
      }
    }
    open += 1
    pthread_mutex_unlock(mutex)
    do {
      return try PostgresConnection(url: url, timeout: connectTimeout)
    } catch {
      pthread_mutex_lock(mutex)
      open -= 1
      pthread_cond_signal(returned)
      pthread_mutex_unlock(mutex)
      throw error
    }
  }

  private func giveBack(_ connection: PostgresConnection) {
    if !connection.isBroken, connection.isInTransaction { try? connection.rollback() }
    pthread_mutex_lock(mutex)
    if connection.isBroken {
      open -= 1
    } else {
      idle.append(connection)
    }
    pthread_cond_signal(returned)
    pthread_mutex_unlock(mutex)
  }

  private static func now() -> Double {
    var time = Glibc.timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  private static func timespec(_ seconds: Double) -> Glibc.timespec {
    let whole = seconds.rounded(.down)
    return Glibc.timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
  }
}
