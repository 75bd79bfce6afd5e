import Foundation
import GoTrueEngine
import Testing

@testable import AuthServer

/// `authflow serve`'s session limits, from the command line or GoTrue's variables.
struct SessionOptionTests {
  @Test func sessionsLastAsLongAsTheyAreRefreshedByDefault() throws {
    let options = try ServeOptions.parse([], environment: [:])
    #expect(options.settings.engine.sessionLimits == SessionLimits())
  }

  @Test func optionsAndGoTruesVariablesSetTheLimits() throws {
    let flags = try ServeOptions.parse(
      ["--sessions-timebox", "24h", "--sessions-inactivity-timeout", "1h30m"], environment: [:])
    #expect(
      flags.settings.engine.sessionLimits
        == SessionLimits(timebox: 86_400, inactivityTimeout: 5_400))
    let variables = try ServeOptions.parse(
      [],
      environment: [
        "GOTRUE_SESSIONS_TIMEBOX": "168h", "GOTRUE_SESSIONS_INACTIVITY_TIMEOUT": "8h",
      ])
    #expect(
      variables.settings.engine.sessionLimits
        == SessionLimits(timebox: 604_800, inactivityTimeout: 28_800))
  }

  @Test func aLimitThatIsNotAPositiveDurationIsRefused() {
    for (name, value) in [("GOTRUE_SESSIONS_TIMEBOX", "0"), ("GOTRUE_SESSIONS_TIMEBOX", "-1h")] {
      #expect(throws: (any Error).self) {
        try ServeOptions.parse([], environment: [name: value])
      }
    }
    do {
      _ = try ServeOptions.parse(["--sessions-inactivity-timeout", "soon"], environment: [:])
      Issue.record("accepted 'soon'")
    } catch {
      #expect(
        error.text(program: "authflow serve")
          == "--sessions-inactivity-timeout takes a duration such as 24h, 90m or 1h30m (or "
          + "seconds), at least 1s and at most 87600h")
    }
  }
}
