import Clocks
import GoTrue
import HTTPServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's request limiters, kept in the server's memory as GoTrue keeps them (tollbooth):
/// per ``RequestLimit``, a token bucket per client.
///
/// Routes that GoTrue does not limit (`GET /user`, admin routes) never touch it; each limiter
/// has its own lock, held only to update one bucket. The engine's store-wide request budgets
/// are off under `authflow serve`: these replace them.
final class RequestLimiter: Sendable {
  /// The budgets and how clients are told apart.
  let limits: RequestLimits
  private let clock: any AuthClock
  /// A table per limit, at the limit's raw value.
  private let tables: [BucketTable]

  /// GoTrue's answer over a limit.
  static let limitReached = GoTrueFailure.api(
    GoTrueAPIError(status: 429, code: .overRequestRateLimit, message: "Request rate limit reached"))

  /// The most clients each limiter remembers by default: enough for a busy local server, and a
  /// few megabytes in all when a flood of invented keys fills every table.
  static let defaultKeysPerLimit = 10_000

  /// Limiters with `limits`, timed by `clock` (a monotonic one by default, so a change of the
  /// wall clock neither empties nor refills the buckets).
  init(
    _ limits: RequestLimits, clock: any AuthClock = MonotonicClock(),
    keysPerLimit: Int = RequestLimiter.defaultKeysPerLimit
  ) {
    self.limits = limits
    self.clock = clock
    tables = RequestLimit.allCases.map { limit in
      BucketTable(shape: limits.shape(limit), capacity: keysPerLimit)
    }
  }

  /// The client `request` is counted for, `nil` when it is not limited.
  func key(for request: HTTPRequest) -> String? { limits.key(for: request) }

  /// Takes one request of `limit` from `key`'s bucket; `false` when it is spent.
  func spend(_ limit: RequestLimit, key: String) -> Bool {
    table(limit).spend(key, now: seconds)
  }

  /// The requests of `limit` that `key` has left; for tests.
  func remaining(_ limit: RequestLimit, key: String) -> Double {
    table(limit).remaining(key, now: seconds)
  }

  /// The buckets of `limit`; for tests.
  func table(_ limit: RequestLimit) -> BucketTable { tables[limit.rawValue] }

  private var seconds: Double { clock.now.timeIntervalSinceReferenceDate }
}

/// Time that only moves forward at the rate it passes: the wall clock's reading at start plus
/// the time a monotonic clock has measured since, plus how far the clock it follows (the
/// engine's, which the clock route moves) has been moved forward.
struct MonotonicClock: AuthClock {
  private let startDate = Date()
  private let start = ContinuousClock.now
  /// The clock whose moves it follows, so `advance 5m` refills buckets as five minutes would.
  var following: AdjustableClock?

  /// The start's wall-clock time plus the time elapsed since and the moves followed.
  var now: Date {
    let elapsed = ContinuousClock.now - start
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return startDate.addingTimeInterval(seconds + (following?.offset ?? 0))
  }
}
