import GoTrue
import Synchronization

/// Makes answers that must not tell accounts apart take the same time, whatever they did.
///
/// `/recover` for an address with an account writes a code and an email; for one without, it
/// writes one row: 0.1 ms apart, enough for a client to tell who has an account from a few
/// timings. No amount of matching work makes two code paths cost exactly the same, so each such
/// answer instead waits until a common time after it began: twice the slowest of the recent
/// answers' work (at least ``minimumDelay``, at most ``maximumDelay``), so both kinds finish at
/// the same moment unless the machine stalls, and the wait follows the machine's load.
final class AnswerPacer: Sendable {
  /// The least time an answer takes.
  static let minimumDelay = Duration.milliseconds(2)
  /// The most time an answer is made to wait.
  static let maximumDelay = Duration.milliseconds(250)
  /// How many recent answers the wait follows.
  static let window = 16

  private let recent = Mutex<[Duration]>([])

  /// Runs `body`, then waits until the paced time after it began, whether it succeeded or not.
  func paced<T>(_ body: () throws(GoTrueFailure) -> T) async throws(GoTrueFailure) -> T {
    let clock = ContinuousClock()
    let start = clock.now
    let outcome = Result(catching: body)
    let worked = clock.now - start
    let delay = recent.withLock { recent in
      recent.append(worked)
      if recent.count > Self.window { recent.removeFirst(recent.count - Self.window) }
      let slowest = recent.max() ?? .zero
      return min(max(slowest * 2, Self.minimumDelay), Self.maximumDelay)
    }
    // A cancelled request (its client gone) has no one to time it.
    try? await Task.sleep(until: start + delay, clock: clock)
    return try outcome.get()
  }
}
