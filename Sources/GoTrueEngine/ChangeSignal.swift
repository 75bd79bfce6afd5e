import Synchronization

/// A count of changes that tasks can wait on: whoever changes something calls ``touch()``, and
/// a watcher (serve's page, through server-sent events) awaits ``change(after:within:)``
/// instead of reading the store in a loop.
///
/// ``touch()`` costs one atomic add while no one waits, so it may sit on a hot path.
public final class ChangeSignal: Sendable {
  private struct Waiters {
    var next: UInt64 = 0
    var waiting: [UInt64: CheckedContinuation<Int, Never>] = [:]
    /// Waiters woken (timed out, cancelled) before they began to wait.
    var expired: Set<UInt64> = []
  }

  private let count = Atomic<Int>(0)
  /// How many wait, kept equal to `waiters.waiting.count` (changed under the lock).
  private let waiting = Atomic<Int>(0)
  private let waiters = Mutex(Waiters())

  /// A signal at version 0, with no one waiting.
  public init() {}

  /// How many changes there have been.
  public var version: Int { count.load(ordering: .sequentiallyConsistent) }

  /// Counts a change and wakes everyone waiting for one.
  public func touch() {
    count.add(1, ordering: .sequentiallyConsistent)
    // NB: a waiter adds itself to `waiting` before it reads `count`, and this reads `waiting`
    // after adding to `count`: one of the two sees the other, so no change is missed.
    guard waiting.load(ordering: .sequentiallyConsistent) > 0 else { return }
    let woken = waiters.withLock { waiters in
      let woken = Array(waiters.waiting.values)
      waiters.waiting.removeAll()
      waiting.subtract(woken.count, ordering: .sequentiallyConsistent)
      return woken
    }
    let now = version
    for waiter in woken { waiter.resume(returning: now) }
  }

  /// The version once it is past `seen`: at once if it already is, else after the next
  /// change, or after `limit` (or when the task is cancelled) with the version then.
  public func change(after seen: Int, within limit: Duration) async -> Int {
    let id = waiters.withLock { waiters -> UInt64 in
      waiters.next += 1
      return waiters.next
    }
    let timer = Task { [weak self] in
      guard (try? await Task.sleep(for: limit)) != nil else { return }
      self?.wake(id)
    }
    defer {
      timer.cancel()
      waiters.withLock { _ = $0.expired.remove(id) }
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        let now: Int? = waiters.withLock { waiters in
          if waiters.expired.remove(id) != nil { return version }
          waiting.add(1, ordering: .sequentiallyConsistent)
          let now = version
          guard now <= seen else {
            waiting.subtract(1, ordering: .sequentiallyConsistent)
            return now
          }
          waiters.waiting[id] = continuation
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      wake(id)
    }
  }

  /// Resumes waiter `id`, if it still waits, with the current version.
  private func wake(_ id: UInt64) {
    let waiter = waiters.withLock { waiters -> CheckedContinuation<Int, Never>? in
      guard let waiter = waiters.waiting.removeValue(forKey: id) else {
        waiters.expired.insert(id)
        return nil
      }
      waiting.subtract(1, ordering: .sequentiallyConsistent)
      return waiter
    }
    waiter?.resume(returning: version)
  }
}
