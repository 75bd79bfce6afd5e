import CEvent
import Synchronization

/// The one way into the loop thread from other threads: Tasks post finished replies, and
/// ``HTTPServer/stop()`` posts a stop request.
///
/// A post appends under the lock, then fires the loop's wake event with `event_active`, which is
/// thread-safe because `evthread_use_pthreads()` ran before `event_base_new()`. Activations that
/// come before the callback runs merge into one call, and that call takes everything queued, so
/// nothing is lost. The wake event lives inside the lock and is fired only while the mailbox is
/// open: before the loop opens it, and after the loop has closed it (just before freeing the
/// event), a post does nothing.
final class Mailbox: Sendable {
  /// A responder's reply for the request the loop registered under `job`.
  struct Completion: Sendable {
    var job: UInt64
    var response: HTTPResponse
  }

  /// What the loop finds when it wakes.
  struct Delivery {
    var completions: [Completion]
    var stopRequested: Bool
  }

  private struct Contents {
    var completions: [Completion] = []
    var stopRequested = false
    /// The loop's wake event; nil before ``open(wake:)`` and after ``close()``.
    var wake: WakeEvent?
  }

  /// The loop's wake event (`struct event *`) as a value other threads may hold.
  ///
  /// `@unchecked Sendable` because of this invariant: other threads only pass the pointer to
  /// `event_active`, which is thread-safe once `evthread_use_pthreads()` has run, and only under
  /// the mailbox lock while the mailbox is open; the loop frees the event only after ``close()``
  /// has taken it back under that lock.
  private struct WakeEvent: @unchecked Sendable {
    let event: OpaquePointer
  }

  private let contents: Mutex<Contents>

  /// A closed mailbox: posts do nothing until ``open(wake:)``.
  init() {
    contents = Mutex(Contents())
  }

  /// Starts delivering: each post fires `wake`, an event made with `cevent_timer_new` on the
  /// loop's base (loop setup).
  func open(wake: OpaquePointer) {
    let shared = WakeEvent(event: wake)
    contents.withLock { $0.wake = shared }
  }

  /// Queues a Task's reply for the loop thread (any thread).
  ///
  /// Only a post to an empty queue fires the wake event: a queue with replies in it has had
  /// its wake fired since the loop last collected, and that wake's callback takes them all. So
  /// under load the replies that pile up between two passes of the loop cost one wake (a write
  /// to libevent's notification fd, made under this lock), not one each.
  func post(_ completion: Completion) {
    contents.withLock { contents in
      guard let wake = contents.wake else { return }
      let wasEmpty = contents.completions.isEmpty
      contents.completions.append(completion)
      if wasEmpty { event_active(wake.event, EV_TIMEOUT, 0) }
    }
  }

  /// Asks the loop to drain and stop (any thread; repeating it changes nothing).
  func requestStop() {
    contents.withLock { contents in
      guard let wake = contents.wake, !contents.stopRequested else { return }
      contents.stopRequested = true
      event_active(wake.event, EV_TIMEOUT, 0)
    }
  }

  /// Takes the queued replies and whether a stop was asked for (loop thread).
  func collect() -> Delivery {
    contents.withLock { contents in
      defer { contents.completions.removeAll(keepingCapacity: true) }
      return Delivery(completions: contents.completions, stopRequested: contents.stopRequested)
    }
  }

  /// Stops all further posts and hands back the wake event for the loop to free (loop thread,
  /// at shutdown). Queued replies are dropped: their connections are gone with the loop.
  func close() -> OpaquePointer? {
    contents.withLock { contents in
      defer {
        contents.wake = nil
        contents.completions.removeAll()
      }
      return contents.wake?.event
    }
  }
}
