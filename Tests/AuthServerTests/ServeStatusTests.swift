import CommandLineOptions
import Testing

@testable import AuthServer

/// What serve says at a terminal: a status line when it is ready, and what it answered when it
/// stops, counted by status class.
struct ServeStatusTests {
  @Test func theTallyCountsAnswersByStatusClass() {
    let tally = RequestTally()
    #expect(tally.summary == "answered no requests")
    tally.count(status: 200)
    #expect(tally.summary == "answered 1 request: 1 2xx")
    for status in [101, 201, 204, 303, 400, 404, 429, 500, 503] { tally.count(status: status) }
    #expect(tally.summary == "answered 10 requests: 1 1xx, 3 2xx, 1 3xx, 3 4xx, 2 5xx")
  }

  @Test func theReadyLineSaysHowLongItTookAndHowToStop() {
    #expect(
      ServeMain.readyLine(after: .milliseconds(12) + .microseconds(700), quiet: false)
        == "ready in 12 ms; one line per request below; Ctrl-C stops it")
    #expect(
      ServeMain.readyLine(after: .seconds(2), quiet: true)
        == "ready in 2000 ms; no line per request (--quiet); Ctrl-C stops it")
  }

  @Test func itsDescriptionListsEveryOptionItParses() {
    let described = ServeMain.command.options.flatMap(\.names)
    #expect(described == ServeOptions.allOptions.flatMap(\.names))
    #expect(ServeMain.command.sections == ServeOptions.sections)
    for section in Set(ServeOptions.allOptions.map(\.section)) {
      #expect(ServeOptions.sections.contains(section), "\(section) is listed by --help")
    }
  }
}
