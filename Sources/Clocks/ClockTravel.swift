#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The body of `POST /authflow/v1/clock` on `authflow serve`: how to move its clock, by a
/// duration (`{"advance":"25h"}`) or to a time (`{"set":"2030-01-01T00:00:00Z"}`). The shell's
/// Supabase backend sends it; the server reads it.
public struct ClockMove: Codable, Equatable, Sendable {
  /// A duration as ``ClockDuration`` reads it.
  public var advance: String?
  /// A later time, in RFC 3339 form.
  public var set: String?

  /// A move by `advance` or to `set`.
  public init(advance: String? = nil, set: String? = nil) {
    self.advance = advance
    self.set = set
  }
}

/// What `authflow serve`'s clock route answers: the server's time, and how far it has been
/// moved.
public struct ClockReading: Codable, Equatable, Sendable {
  /// The server's time, `2030-01-01T00:00:00Z`.
  public var now: String
  /// How far the clock has been moved forward, in seconds.
  public var offsetSeconds: Double
  /// Whether `POST` may move it (a throw-away store, or `--allow-clock`).
  public var movable: Bool

  /// The reading of a clock at `now`, moved by `offset` seconds.
  public init(now: Date, offset: Double, movable: Bool) {
    self.now = Self.timestamp(now)
    offsetSeconds = offset
    self.movable = movable
  }

  /// The server's time as a date, or `nil` when ``now`` is not a time.
  public var date: Date? { try? Date.ISO8601FormatStyle().parse(now) }

  /// `date` to the second, in UTC: `2030-01-01T00:00:00Z`.
  public static func timestamp(_ date: Date) -> String {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
  }

  enum CodingKeys: String, CodingKey {
    case now, movable
    case offsetSeconds = "offset_seconds"
  }
}
