#if canImport(Glibc)
  import Glibc
#endif

/// Threads of the process's own that run responders' work when that work blocks on something
/// other than a core: a PostgreSQL store's calls wait on the database over a blocking client
/// (libpq). Swift's global executor has one thread per core, so a request waiting there for the
/// database holds a core's thread, and the core idles while other requests queue behind it;
/// with as many threads here as the store has connections, one request's wait is another's
/// turn on the core.
///
/// Jobs run in the order they came. The threads live as long as the process, as the global
/// executor's do, so a task that outlives its server (its work cannot be interrupted while it
/// waits on the database) still has a thread to finish on; there is one set for the process,
/// grown to the most any server asked for.
final class WorkThreads: TaskExecutor, @unchecked Sendable {
  // @unchecked: `jobs`, `next` and `threads` are only touched between lock and unlock of
  // `mutex`.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let queued: UnsafeMutablePointer<pthread_cond_t>
  private var jobs: [UnownedJob] = []
  /// The first job of `jobs` not yet taken.
  private var next = 0
  private var threads = 0

  /// The process's threads, at least `count` of them.
  static func shared(atLeast count: Int) -> WorkThreads {
    shared.grow(to: count)
    return shared
  }

  private static let shared = WorkThreads()

  private init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    queued = .allocate(capacity: 1)
    pthread_cond_init(queued, nil)
  }

  private func grow(to count: Int) {
    pthread_mutex_lock(mutex)
    let missing = max(count - threads, 0)
    threads += missing
    pthread_mutex_unlock(mutex)
    for _ in 0..<missing {
      LoopThread.start { [self] in work() }
    }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    pthread_mutex_lock(mutex)
    jobs.append(job)
    pthread_cond_signal(queued)
    pthread_mutex_unlock(mutex)
  }

  /// One thread's life: take the oldest job, run it, again.
  private func work() {
    let executor = asUnownedTaskExecutor()
    while true {
      pthread_mutex_lock(mutex)
      while next == jobs.count { pthread_cond_wait(queued, mutex) }
      let job = jobs[next]
      next += 1
      if next == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        next = 0
      } else if next >= 1024, next * 2 >= jobs.count {
        jobs.removeFirst(next)
        next = 0
      }
      pthread_mutex_unlock(mutex)
      job.runSynchronously(on: executor)
    }
  }
}
