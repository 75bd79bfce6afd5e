import Clocks
import GoTrue
import HTTPServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The clock of `authflow serve` as its clock route shows and moves it: the engine's, which
/// tokens, codes, sessions, flow states and (through ``MonotonicClock``) the request limits
/// all read.
struct ServerClock: Sendable {
  /// The engine's clock, when requests may move it (a `:memory:` store, or `--allow-clock`).
  var movable: AdjustableClock?
  /// Tells the server's log that the clock moved (one line, without the program's name).
  var announce: @Sendable (String) -> Void = { _ in }

  /// A clock no request moves.
  static let fixed = ServerClock(movable: nil)
}

/// Time travel over HTTP: `GET /authflow/v1/clock` reads the server's time, `POST` moves it
/// forward (`{"advance":"25h"}` or `{"set":"2030-01-01T00:00:00Z"}`), so a test sees an access
/// token expire, a code lapse or a rate limit refill without waiting.
///
/// Loopback-only, as the outbox is (``LocalTrust``); a move also needs a clock that may move:
/// time travelled on a store other processes share would reach them too.
enum ClockRoutes {
  /// The route's path, also under `/auth/v1` as every GoTrue path is.
  static let path = "/authflow/v1/clock"

  static let all: [Route] = [.local(path, "the clock", [.get: read, .post: move])]

  /// `GET /authflow/v1/clock`: the server's time.
  @Sendable static func read(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    return reading(context)
  }

  /// `POST /authflow/v1/clock`: moves the clock forward by `advance` or to `set`, and answers
  /// the time it then shows.
  @Sendable static func move(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    guard let clock = context.clock.movable else { return Answer.text(403, notMovable) }
    let body = try context.body().decode(ClockMove.self)
    let moved: Double
    switch (body.advance, body.set) {
    case (let advance?, nil):
      guard let seconds = ClockDuration.seconds(advance) else {
        throw invalid("advance takes \(ClockDuration.examples)")
      }
      clock.advance(by: seconds)
      moved = seconds
    case (nil, let set?):
      guard let date = timestamp(set) else {
        throw invalid("set takes a time in RFC 3339 form, such as 2030-01-01T00:00:00Z")
      }
      guard let seconds = clock.advance(to: date) else {
        throw invalid(
          "the clock only moves forward: the server's time is "
            + "\(ClockReading.timestamp(clock.now)); set a later time, or advance a duration")
      }
      moved = seconds
    default:
      throw invalid(
        #"give one of advance or set: {"advance":"25h"} or {"set":"2030-01-01T00:00:00Z"}"#)
    }
    context.clock.announce(
      "clock moved forward \(ClockDuration.text(moved)) to \(ClockReading.timestamp(clock.now))")
    return reading(context)
  }

  /// Why a request may not move this server's clock.
  static let notMovable =
    "the clock moves only on a throw-away store: time travelled here would reach the store "
    + "other processes share; start authflow serve with --store :memory:, or with --allow-clock "
    + "to move it anyway"

  private static func reading(_ context: RouteContext) -> HTTPResponse {
    let movable = context.clock.movable
    return Answer.json(
      ClockReading(
        now: context.engine.clock.now, offset: movable?.offset ?? 0, movable: movable != nil))
  }

  /// A time in RFC 3339 form (`2030-01-01T00:00:00Z`, a fraction or an offset allowed), up to
  /// the year 9999.
  private static func timestamp(_ text: String) -> Date? {
    guard let date = GoTrueCoding.parseTimestamp(text),
      date.timeIntervalSince1970 < 253_402_300_800
    else { return nil }
    return date
  }

  private static func invalid(_ message: String) -> GoTrueFailure {
    .api(.invalid(message))
  }
}
