import Foundation
import GoTrueEngine
import Testing

@testable import AuthShell

/// The shell's GoTrue session options on the embedded backend: parsed, refused clearly, and
/// carried by a recording's `#!` line so its replay ends sessions the same way.
struct SessionOptionShellTests {
  @Test func theLimitsAndSecurePasswordChangeAreParsedAndRecorded() throws {
    let options = try ShellOptions.parse([
      "--store", ":memory:", "--sessions-timebox", "24h", "--sessions-inactivity-timeout", "90m",
      "--secure-password-change",
    ])
    #expect(
      options.settings.engine.sessionLimits
        == SessionLimits(timebox: 86_400, inactivityTimeout: 5_400))
    #expect(options.settings.engine.passwordChangeNeedsReauthentication)
    #expect(
      options.recordedOptions == [
        "--backend", "embedded", "--store", ":memory:", "--sessions-timebox", "24h",
        "--sessions-inactivity-timeout", "90m", "--secure-password-change",
      ])
  }

  @Test func aLimitThatIsNotADurationSaysWhatIs() throws {
    let run = try runAuthflow(["--sessions-timebox", "1d", "-c", "show"])
    #expect(run.status == 2)
    #expect(
      run.error.contains(
        "--sessions-timebox takes a duration such as 24h, 90m or 1h30m (or seconds), at least 1s "
          + "and at most 87600h"), "\(run.error)")
  }

  @Test func theShellEndsASessionPastTheTimebox() throws {
    let run = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--sessions-timebox", "24h", "-c",
      "signin; set email test@example.com; set password TestPassword123!; submit; "
        + "clock advance 25h; expect signed-out; expect state choice; "
        + "expect error \"Your session has expired. Please sign in again.\"",
    ])
    #expect(run.status == 0, "\(run.error)")
  }
}
