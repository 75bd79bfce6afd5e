import HTTPServer
import LocalPages

/// The presented page's server-sent events (`GET /events`): `screen`, whose data is the
/// screen's JSON, whenever the version the page has seen (`Last-Event-ID`) is not the newest;
/// otherwise the answer holds until the shell shows a new screen (or ``hold`` passes, then
/// `idle`). As serve's page does it (``PageEventStream``): one short stream per answer, the
/// browser asking again after ``retry`` milliseconds, and a held answer waiting on a
/// ``ChangeSignal``, never reading in a loop.
enum PresentEvents {
  /// How long an answer waits for a new screen.
  static let hold = Duration.seconds(15)
  /// How soon the browser asks again, in milliseconds: well inside the 100 ms a new screen
  /// may take to show.
  static let retry = 40

  /// The answer to one connection of the event stream.
  static func answer(_ request: HTTPRequest, board: PresentBoard) async -> HTTPResponse {
    // Read before the screen: a screen shown after this wakes the wait below.
    let signal = board.changes.version
    let now = board.shown
    guard let seen = request.header("Last-Event-ID").flatMap({ Int($0) }), seen == now.version
    else {
      // A new page, one behind, or one from another run: the screen as it is.
      return stream(now)
    }
    _ = await board.changes.change(after: signal, within: hold)
    let then = board.shown
    return then.version == seen
      ? PageEventStream.answer(id: "\(seen)", retry: retry, events: [("idle", "{}")])
      : stream(then)
  }

  private static func stream(_ shown: PresentBoard.Shown) -> HTTPResponse {
    PageEventStream.answer(id: "\(shown.version)", retry: retry, events: [("screen", shown.json)])
  }
}
