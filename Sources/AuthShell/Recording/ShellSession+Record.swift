import AuthFlow
import ScriptSuites

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// What a session's recordings are made with: fixed when the shell starts.
struct RecordingContext: Sendable {
  /// The options of a recording's `#!` line (``ShellOptions/recordedOptions``).
  var options: [String] = ["--backend", BackendKind.embedded.rawValue, "--store", ":memory:"]
  /// Whether new accounts are signed in at once (`--autoconfirm`).
  var autoconfirm = false
  /// The `authflow` program that replays a recording when it stops; `nil` for this one.
  var program: String?
  /// Whether the file is written after every command (a person at the prompt: nothing is
  /// lost if the shell is killed), or only when the recording stops (a script).
  var savesEachStep = false
  /// Today, as a recording's header says it.
  var today: @Sendable () -> String = { RecordingContext.day(of: Date()) }

  /// `2026-11-22`: the local date of `date`.
  static func day(of date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day())
  }
}

extension ShellSession {
  /// `record FILE [--transcript]`, `record stop`, `record`.
  func record(_ request: RecordRequest) async -> CommandOutput {
    switch request {
    case .start(let path, let transcript):
      return startRecording(to: path, transcript: transcript)
    case .stop:
      guard observers.recorder != nil else { return .mistake(.notRecording) }
      return .printed(await stopRecording())
    case .status:
      if let recorder = observers.recorder {
        return .printed([
          "Recording to \(recorder.setup.path): \(counts(recorder)) so far; record stop ends it."
        ])
      }
      return .printed([
        "Not recording; record FILE starts (record FILE --transcript saves"
          + " the replay's transcript too)."
      ])
    }
  }

  /// Starts recording to `path`, from the state on show: a recorder joins the observers. A
  /// file there is replaced only when an earlier recording made it.
  func startRecording(to path: String, transcript: Bool) -> CommandOutput {
    if let recorder = observers.recorder {
      return .mistake(.alreadyRecording(recorder.setup.path))
    }
    if transcript, backend.kind != .embedded {
      return .mistake(.transcriptNeedsEmbedded(backend: backend.kind))
    }
    if let problem = Self.refusal(toReplace: path) { return .mistake(problem) }
    let recording = observers.recording
    let setup = ScriptRecorder.Setup(
      path: path, transcript: transcript, options: recording.options, backendName: backend.name,
      freshStore: backend.kind == .embedded, autoconfirm: recording.autoconfirm,
      day: recording.today(), version: AuthflowMain.version)
    let recorder = ScriptRecorder(setup: setup, start: viewModel.state, now: now, masks: io.masks)
    if let problem = Self.write(recorder.text, to: path) {
      return .mistake(.cannotRecord(path: path, reason: problem))
    }
    observers.recorder = recorder
    return .printed([
      "Recording to \(path): each command that runs, and checks of what it changed; "
        + "record stop ends it."
    ])
  }

  /// Why the file at `path` must not be replaced, or `nil` when it may: nothing is there, or
  /// an empty file, or an earlier recording.
  private static func refusal(toReplace path: String) -> ShellError? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    guard status.st_mode & S_IFMT == S_IFREG else {
      return .cannotRecord(path: path, reason: "it is not a regular file")
    }
    guard status.st_size > 0 else { return nil }
    let second = ScriptHeader.openingLines(of: path).dropFirst().first
    if second?.hasPrefix(ScriptRecorder.mark) == true { return nil }
    return .wontReplace(path)
  }

  /// Ends the recording, if there is one, as `record stop` does: when the input ends or the
  /// shell quits. The lines it prints.
  func finishRecording() async -> [String] {
    observers.recorder != nil ? await stopRecording() : []
  }

  /// Writes the file, tells what it needs, and replays it on a fresh store to show it passes.
  private func stopRecording() async -> [String] {
    guard let recorder = observers.recorder else { return [] }
    observers.recorder = nil
    let setup = recorder.setup
    if let problem = Self.write(recorder.text, to: setup.path) {
      return [Renderer.errorLine("Cannot write \(setup.path): \(problem)", style)]
    }
    var lines = ["Recorded \(counts(recorder)) to \(setup.path)."]
    // The #! line's options that a script's line may not give itself (a project's URL) go on
    // the command line that runs it.
    let command = ScriptLineAdmission.command(toRun: setup.path, line: setup.options)
    let variables = recorder.variables
    if !variables.isEmpty {
      let names = variables.map(\.name)
      lines.append(
        "It reads \(listing(names)) from the environment: "
          + names.map { "\($0)=…" }.joined(separator: " ") + " " + command)
    }
    let relied = recorder.reliedOn
    if !relied.isEmpty {
      lines.append(
        setup.freshStore
          ? "It relied on \(listing(relied)), made before the recording began: the file starts "
            + "with the steps that make \(relied.count == 1 ? "it" : "them")."
          : "It relies on \(listing(relied)), made before the recording began: "
            + "\(relied.count == 1 ? "it" : "they") must exist on the project when it runs.")
    }
    if recorder.beganElsewhere {
      lines.append(
        "It began away from the choice screen: the file starts with the steps that get there.")
    }
    guard setup.freshStore else {
      lines.append(
        "Not replayed: a replay on the \(setup.backendName) backend makes accounts on the project;"
          + " \(command) runs it.")
      return lines
    }
    var environment = environment
    for variable in variables {
      environment[variable.name] = variable.value ?? suggestedPassword()
    }
    let outcome = await Self.replay(
      setup.path, transcript: setup.transcript,
      program: observers.recording.program ?? SuiteMain.thisProgram(),
      environment: environment)
    switch outcome.verdict {
    case .passed:
      let saved =
        outcome.updated
        ? " Saved its transcript to \(SuiteScript(path: setup.path, name: "").transcriptPath)." : ""
      lines.append(Renderer.success("Replayed on a fresh store: it passes.", style) + saved)
    case .failed, .skipped:
      let why = (outcome.problems + outcome.diff).first ?? "it did not pass"
      lines.append(Renderer.errorLine("Replayed on a fresh store, it fails: \(why)", style))
    }
    return lines
  }

  private func counts(_ recorder: ScriptRecorder) -> String {
    let commands = recorder.commandCount
    let checks = recorder.checkCount
    return "\(commands) command\(commands == 1 ? "" : "s") and \(checks) check"
      + (checks == 1 ? "" : "s")
  }

  /// Runs the recording as `authflow test` runs a script (saving its transcript with
  /// `--update` when asked), away from the main actor.
  @concurrent
  private static func replay(
    _ path: String, transcript: Bool, program: String, environment: [String: String]
  ) async -> ScriptOutcome {
    let script = SuiteScript(path: path, name: path)
    let options =
      (try? SuiteOptions.parse(transcript ? ["--update", "--jobs", "1"] : ["--jobs", "1"]))
      ?? SuiteOptions()
    let reporter = SuiteReporter(scripts: [script], mode: .lines, output: ShellOutput { _, _ in })
    return SuiteMain.run(
      [script], options: options, program: program, environment: environment,
      reporter: reporter
    ).first ?? .skipped(script, reason: "not run")
  }

  /// Writes `text` to `path` whole (a reader never sees half a file), executable by whoever
  /// may read it, as a script with a `#!` line is; the problem, if any.
  static func write(_ text: String, to path: String) -> String? {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
      var status = stat()
      if stat(path, &status) == 0 {
        chmod(path, status.st_mode & 0o7777 | (status.st_mode & 0o444) >> 2)
      }
      return nil
    } catch {
      var status = stat()
      let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
      if stat(folder, &status) != 0 { return "there is no folder \(folder)" }
      return access(folder, W_OK) != 0 ? "the folder cannot be written" : "it cannot be written"
    }
  }
}

extension ScriptRecorder: StepObserver {
  /// Records what a command did, while this is the session's recording; with an outbox, the
  /// newest code or link sent tells one that a replay can read from the outbox. A person at the
  /// prompt has the file saved after every command.
  func observe(_ step: StepRecord, in session: ShellSession) async -> [String] {
    guard session.observers.recorder === self else { return [] }
    let mailbox = session.backend.mailbox
    var recorded = Step(record: step, hasOutbox: mailbox != nil)
    if let mailbox {
      switch step.invocation.input.role {
      case .fill(.value(.otp, _)), .fill(.ask(.otp)):
        if case .resetVerify(let pending) = step.before.navigation {
          recorded.newestCode = try? await mailbox.newest(to: pending, type: "recovery")?.code
        }
      case .link:
        let address = step.before.addressOnShow
        if !address.isEmpty {
          recorded.newestLink = try? await mailbox.newest(to: address, type: nil)?.link
        }
      default:
        break
      }
    }
    record(recorded)
    guard session.observers.recording.savesEachStep,
      let problem = ShellSession.write(text, to: setup.path)
    else { return [] }
    return [Renderer.errorLine("Cannot write \(setup.path): \(problem)", session.style)]
  }
}
