import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads lines, runs their commands and reports, until the input ends or a command quits.
@MainActor
final class ShellRunner {
  /// How a run behaves.
  struct Options: Sendable {
    /// Print each line after its prompt, as a transcript.
    var echo = false
    /// Stop at the first mistake or failed expectation.
    var bail = false
    /// Print one JSON object per command instead of text.
    var json = false
    /// A person is typing: mistakes do not change the exit status, and lines have no numbers.
    var interactive = false
    /// A presenter's playback: commands typed out at a pace, with pauses (echo implied).
    var playback: Playback?
    /// `--record FILE`: record from the start.
    var record: String?
  }

  private let session: ShellSession
  private let source: any LineSource
  private let output: ShellOutput
  private let options: Options
  private var lineNumber = 0
  private var failed = false
  /// Whether the script's opening lines (its `#!` line and the comments before the first
  /// command or blank line) are still being read: a presenter's playback does not show them.
  private var inHeader = true
  private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  /// A runner of `session` over `source`, writing to `output`.
  init(session: ShellSession, source: any LineSource, output: ShellOutput, options: Options) {
    self.session = session
    self.source = source
    self.output = output
    self.options = options
    session.io.masksCodes = options.json
    output.masks = session.io.masks
  }

  /// Runs to the end; the exit status: 0 when everything ran and held, else 1.
  func run() async -> Int32 {
    write(await session.start())
    // A restored session is the presented screen's first.
    session.observers.presenter?.show(session)
    if let path = options.record {
      // `--record FILE` is a recorder added before the first line.
      let started = session.startRecording(to: path, transcript: false)
      if case .mistake(let error) = started.result {
        output.error("authflow: \(error.text)")
        output.flush()
        return 2
      }
      write(
        started.lines,
        command: options.json
          ? CommandTable.record.invocation(.start(path: path, transcript: false)).displayText : nil)
    }
    reading: while let input = source.nextLine(
      prompt: options.interactive ? prompt : "", idleAfter: recheckInterval)
    {
      if input == .idle {
        // Nothing typed for a while: the screen waiting for a verified email checks again.
        write(await session.recheckEmailVerification())
        session.observers.presenter?.show(session)
        continue
      }
      lineNumber += 1
      switch input {
      case .idle:
        continue
      case .interrupted:
        continue
      case .unreadable(let problem):
        report(problem, command: nil)
        if options.bail { break reading }
      case .line(let text):
        // Most lines run at once; a line waits only while a command waits for the backend.
        var progress = runLine(text)
        while case .waits(let rest) = progress { progress = await rest() }
        if case .ended(.quit) = progress { break reading }
        if failed && options.bail { break reading }
      }
    }
    if session.observers.recorder != nil {
      let lines = await session.finishRecording()
      write(lines, command: options.json ? CommandTable.record.invocation(.stop).displayText : nil)
    }
    output.flush()
    session.observers.coverage.finish()
    return failed && !options.interactive ? 1 : 0
  }

  private enum LineOutcome { case goOn, quit }

  /// Where a line stands: ended, with what the runner does next, or waiting for a command's
  /// answer, with the rest of the line to run once it comes. Lines are run without suspending
  /// until a command must: a script's lines are mostly commands that change state at once.
  private enum LineProgress {
    case ended(LineOutcome)
    case waits(@MainActor () async -> LineProgress)
  }

  /// Parses, echoes and keeps `text` (a line read), and runs its commands.
  private func runLine(_ text: String) -> LineProgress {
    let line = LineParser.parse(text.utf8.last == .carriageReturn ? text.dropLast() : text[...])
    echo(line)
    if line.isEmpty { return .ended(.goOn) }
    if source.keepsHistory, line.parsedCleanly {
      source.remember(String(line.display[...].trimmingWhitespace()))
    }
    if let problem = line.problem {
      report(problem, command: options.json ? line.display : nil)
      return .ended(.goOn)
    }
    return runCommands(of: line, from: 0)
  }

  /// Runs the commands of `line` from the one at `first` on.
  private func runCommands(of line: ParsedLine, from first: Int) -> LineProgress {
    for index in first..<line.commands.count {
      let invocation: Invocation
      switch line.commands[index].result {
      case .failure(let error):
        if let end = finish(line, index, printed: [], result: .mistake(error)) {
          return .ended(end)
        }
        continue
      case .success(let parsed):
        invocation = parsed
      }
      // Only a signed-in session can be due for renewal (most script lines are signed out).
      let renews = invocation.spec.renewsSessionFirst && session.viewModel.isLoggedIn
      if renews || session.observers.watching {
        return .waits { [self] in
          let renewal = renews ? await session.renewSessionIfDue() : []
          let output: CommandOutput
          if session.observers.watching {
            output = await runWatched(invocation)
          } else {
            switch session.prepare(invocation) {
            case .finished(let finished): output = finished
            case .waits(let run): output = await run()
            }
          }
          return continueLine(line, after: index, printed: renewal, output)
        }
      }
      // Unwatched (most commands of a script): nothing of the step is kept.
      switch session.prepare(invocation) {
      case .finished(let output):
        if let end = finish(line, index, printed: output.lines, result: output.result) {
          return .ended(end)
        }
      case .waits(let run):
        return .waits { [self] in continueLine(line, after: index, printed: [], await run()) }
      }
    }
    return .ended(.goOn)
  }

  /// Finishes the command at `index` of `line` with its `output` after `printed`, and runs the
  /// commands after it.
  private func continueLine(
    _ line: ParsedLine, after index: Int, printed: [String], _ output: CommandOutput
  ) -> LineProgress {
    if let end = finish(line, index, printed: printed + output.lines, result: output.result) {
      return .ended(end)
    }
    return runCommands(of: line, from: index + 1)
  }

  /// Writes what the command at `index` of `line` printed and reports its mistake or failed
  /// check; `.quit` when the run stops here, nil when it goes on.
  private func finish(
    _ line: ParsedLine, _ index: Int, printed: [String], result: CommandResult
  ) -> LineOutcome? {
    let shown = options.json ? line.commands[index].displayText : nil
    let position = line.commands.count > 1 ? index + 1 : nil
    switch result {
    case .done:
      write(printed, command: shown)
    case .quit:
      write(printed, command: shown)
      return .quit
    case .mistake(let error):
      report(error, printed: printed, command: shown, position: position)
      // A script without the secret it reads would only fail on from here: it stops.
      switch error {
      case .variableUnset, .entryCancelled: if !options.interactive { return .quit }
      default: break
      }
    case .failedExpectation(let message):
      report(message, printed: printed, command: shown, position: position)
    }
    return failed && options.bail ? .quit : nil
  }

  /// How many seconds the prompt waits before checking again whether the email was verified:
  /// only for a person at the terminal (scripts keep the explicit `reload`), and not while
  /// recording, whose replay could not see a change no command made.
  private var recheckInterval: Double? {
    guard options.interactive, options.playback == nil, session.observers.recorder == nil,
      session.viewModel.awaitsEmailVerification
    else { return nil }
    return Self.verificationRecheckSeconds
  }

  /// Seed 003's "periodically checks": every five seconds without a key pressed.
  static let verificationRecheckSeconds = 5.0

  private var prompt: String {
    session.io.masks.apply(
      Renderer.prompt(
        session.viewModel.state, label: session.backend.promptLabel, style: session.style))
  }

  /// Prints the line as a transcript shows it: commands after their prompt, secrets masked;
  /// comments and blank lines as they are.
  private func echo(_ line: ParsedLine) {
    guard options.echo || options.playback != nil, !options.json else { return }
    if inHeader {
      inHeader = line.isEmpty && line.text.hasPrefix("#")
      // The audience sees the tour, not its set-up: the header is read, not played.
      if options.playback != nil, inHeader || line.text.isEmpty { return }
    }
    guard !line.isEmpty else {
      if let playback = options.playback, Playback.isPause(line.text) {
        output.flush()
        playback.waitForEnter?()
        return
      }
      output.line(String(line.text))
      return
    }
    let plainStyle = RenderStyle(colour: false, plain: session.style.plain)
    let prompt = Renderer.prompt(
      session.viewModel.state, label: session.backend.promptLabel, style: plainStyle)
    if let playback = options.playback {
      playback.type(line.display, after: prompt, to: output)
    } else {
      output.line(prompt + line.display)
    }
  }

  /// Runs `invocation`, and hands what it did to the session's observers (coverage, a
  /// recording).
  private func runWatched(_ invocation: Invocation) async -> CommandOutput {
    let observers = session.observers.active
    let before = session.viewModel.state
    let (eventsBefore, startedAt) = (session.events.total, session.now)
    var output: CommandOutput
    switch session.prepare(invocation) {
    case .finished(let finished): output = finished
    case .waits(let run): output = await run()
    }
    let step = StepRecord(
      invocation: invocation, result: output.result, before: before,
      after: session.viewModel.state, events: session.events.events(after: eventsBefore),
      startedAt: startedAt, endedAt: session.now)
    for observer in observers { output.append(await observer.observe(step, in: session)) }
    return output
  }

  /// Writes what a command printed, as text or as its JSON object (for `command`).
  private func write(_ lines: [String], command: String? = nil, problem: String? = nil) {
    if lines.isEmpty, !options.json || command == nil { return }
    if options.json, let command {
      let report = CommandReport(
        line: lineNumber, command: command, problem: problem, state: session.viewModel.state,
        output: lines)
      if let data = try? encoder.encode(report) {
        output.line(String(decoding: data, as: UTF8.self))
      }
    } else {
      for line in lines { output.line(line) }
    }
    if options.interactive { output.flush() }
  }

  /// Reports a mistake on standard error: `line N: message; hint`.
  private func report(
    _ error: ShellError, printed: [String] = [], command: String?, position: Int? = nil
  ) {
    report(error.text, printed: printed, command: command, position: position)
  }

  /// Reports a mistake or a failed expectation on standard error, after what the command
  /// printed: `line N: text`.
  private func report(
    _ text: String, printed: [String] = [], command: String?, position: Int? = nil
  ) {
    failed = true
    var prefix = options.interactive ? "error" : "line \(lineNumber)"
    if let position { prefix += " (command \(position))" }
    write(printed, command: command ?? (options.json ? "" : nil), problem: text)
    output.error("\(prefix): \(text)")
    if options.interactive { output.flush() }
  }
}

extension Substring {
  /// The text without leading and trailing spaces and tabs.
  func trimmingWhitespace() -> Substring {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isBlank($0) }) else { return self[endIndex...] }
    let last = lastIndex(where: { !isBlank($0) }) ?? first
    return self[first...last]
  }
}
