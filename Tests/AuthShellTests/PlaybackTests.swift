import Foundation
import Synchronization
import Testing

@testable import AuthShell

/// `authflow play`: each command typed out at the pace after its prompt, secrets as the mask,
/// pauses at `# pause` (and before every command with `--step`), with the time injected.
@MainActor
struct PlaybackTests {
  final class Recorder: Sendable {
    let sleeps = Mutex<[Int]>([])
    let pauses = Mutex(0)
  }

  func playback(_ recorder: Recorder, pace: Int = 40, step: Bool = false) -> Playback {
    Playback(
      pace: pace, step: step,
      sleep: { milliseconds in recorder.sleeps.withLock { $0.append(milliseconds) } },
      waitForEnter: { recorder.pauses.withLock { $0 += 1 } })
  }

  @Test func commandsAreTypedAtThePaceWithSecretsMasked() async throws {
    let recorder = Recorder()
    var options = ShellRunner.Options()
    options.playback = playback(recorder)
    let run = try await runShell(
      ["signin", "# pause", "set password TestPassword123!", "# a note"], options: options)
    #expect(run.output == "choice> signin\n→ Sign In\nlogin> set password ••••••••\n# a note\n")
    let typed = "signin".count + "set password ••••••••".count
    #expect(recorder.sleeps.withLock { $0 } == Array(repeating: 40, count: typed))
    #expect(recorder.pauses.withLock { $0 } == 1, "one # pause")
    #expect(!run.output.contains("TestPassword123!"))
  }

  @Test func theScriptsSetUpIsReadNotPlayed() async throws {
    let recorder = Recorder()
    var options = ShellRunner.Options()
    options.playback = playback(recorder, pace: 0)
    let script = [
      "#!/usr/bin/env -S authflow --store :memory:", "# A tour for a presenter.", "",
      "# 1. Sign in.", "signin", "", "# 2. Back.", "back",
    ]
    let played = try await runShell(script, options: options)
    #expect(
      played.output
        == "# 1. Sign in.\nchoice> signin\n→ Sign In\n\n# 2. Back.\nlogin> back\n→ Welcome\n")
    // A transcript (--echo) keeps every line.
    var echo = ShellRunner.Options()
    echo.echo = true
    let echoed = try await runShell(script, options: echo)
    #expect(echoed.output.hasPrefix("#!/usr/bin/env -S authflow --store :memory:\n# A tour"))
  }

  @Test func stepWaitsBeforeEveryCommand() async throws {
    let recorder = Recorder()
    var options = ShellRunner.Options()
    options.playback = playback(recorder, pace: 0, step: true)
    _ = try await runShell(["signin", "back", "# pause"], options: options)
    #expect(recorder.pauses.withLock { $0 } == 3)
  }

  @Test func theOptionsArePaceAndStep() throws {
    guard
      case .success(let (playback, rest)) = Playback.parse(["--pace", "5", "--step", "a.authflow"])
    else {
      Issue.record("parse failed")
      return
    }
    #expect(playback.pace == 5 && playback.step && rest == ["a.authflow"])
    guard case .success(let (other, _)) = Playback.parse(["--pace=0", "x"]) else {
      Issue.record("parse failed")
      return
    }
    #expect(other.pace == 0 && !other.step)
    guard case .failure(let error) = Playback.parse(["--pace", "fast"]) else {
      Issue.record("a bad pace was taken")
      return
    }
    #expect(
      error.text == "--pace takes milliseconds per character, 0 to 2000 (default 40)")
    #expect(
      Playback.isPause("# pause") && Playback.isPause("  #   pause ")
        && !Playback.isPause("# pause here"))
  }

  @Test func playWithoutAScriptIsAOneLineMistake() throws {
    let run = try runAuthflow(["play", "--pace", "0"])
    #expect(run.status == 2)
    #expect(run.error == "authflow: play takes a script: authflow play FILE [--pace MS] [--step]\n")
  }
}
