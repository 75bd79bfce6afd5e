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
  private let offset = Mutex<TimeInterval>(0)

  /// A clock that follows the wall clock, or stands at `start` until advanced.
  public init(fixedAt start: Date? = nil) {
    self.start = start
  }

  /// The current time of this clock.
  public var now: Date {
    (start ?? Date()).addingTimeInterval(offset.withLock { $0 })
  }

  /// Moves the clock forward by `interval` seconds.
  public func advance(by interval: TimeInterval) {
    precondition(interval >= 0, "clocks only move forward")
    offset.withLock { $0 += interval }
  }
}
