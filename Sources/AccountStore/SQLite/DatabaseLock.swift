#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The store's one connection, behind a default pthread mutex.
///
/// `Synchronization.Mutex` is a priority-inheritance futex on Linux. Under `authflow serve`'s
/// load every request takes the connection, and the kernel's PI slow path alone cost about a
/// tenth of the CPU of a refresh grant (`perf record` during `make bench`); a default pthread
/// mutex waits on a plain futex.
final class DatabaseLock: @unchecked Sendable {
  // @unchecked: `database` is only reached between lock and unlock of `mutex`.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let database: SQLiteDatabase

  init(_ database: SQLiteDatabase) {
    self.database = database
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the connection, holding the lock.
  func withLock<T, Failure: Error>(_ body: (SQLiteDatabase) throws(Failure) -> T) throws(Failure)
    -> T
  {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(database)
  }
}
