import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The time source of a backend; injected so tests, transcripts and `clock advance` control it.
public protocol AuthClock: Sendable {
  /// The current time.
  var now: Date { get }
}

/// The system's wall clock.
public struct SystemClock: AuthClock {
  /// The system clock.
  public init() {}

  /// The current wall-clock time.
  public var now: Date { Date() }
}

/// A clock that can be moved forward: the wall clock plus an offset, or a fixed start plus an
/// offset (for reproducible runs).
public final class AdjustableClock: AuthClock {
  private let start: Date?
  private let offsetSeconds = Mutex<TimeInterval>(0)

  /// A clock that follows the wall clock, or stands at `start` until advanced.
  public init(fixedAt start: Date? = nil) {
    self.start = start
  }

  /// The current time of this clock.
  public var now: Date {
    (start ?? Date()).addingTimeInterval(offset)
  }

  /// How far the clock has been moved forward, in seconds.
  public var offset: TimeInterval { offsetSeconds.withLock { $0 } }

  /// Moves the clock forward by `interval` seconds.
  public func advance(by interval: TimeInterval) {
    precondition(interval >= 0, "clocks only move forward")
    offsetSeconds.withLock { $0 += interval }
  }

  /// Moves the clock forward to `date`, returning how far it moved; `nil`, moving nothing, when
  /// `date` is before the clock's time (clocks only move forward).
  public func advance(to date: Date) -> TimeInterval? {
    offsetSeconds.withLock { offset in
      let interval = date.timeIntervalSince((start ?? Date()).addingTimeInterval(offset))
      guard interval >= 0 else { return nil }
      offset += interval
      return interval
    }
  }
}
