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
    session.masksCodes = options.json
  }

  /// Runs to the end; the exit status: 0 when everything ran and held, else 1.
  func run() async -> Int32 {
    await session.start()
    writePending()
    if let path = options.record,
      case .mistake(let error) = session.startRecording(to: path, transcript: false)
    {
      output.error("authflow: \(error.text)")
      output.flush()
      return 2
    }
    if let path = options.record { writePending(command: options.json ? "record \(path)" : nil) }
    reading: while let input = source.nextLine(prompt: options.interactive ? prompt : "") {
      lineNumber += 1
      switch input {
      case .interrupted:
        continue
      case .unreadable(let problem):
        report(problem, command: nil)
        if options.bail { break reading }
      case .line(let text):
        if await runLine(text) == .quit || (failed && options.bail) { break reading }
      }
    }
    writePending()
    if session.recorder != nil {
      await session.finishRecording()
      writePending(command: options.json ? "record stop" : nil)
    }
    output.flush()
    session.coverage.finish()
    return failed && !options.interactive ? 1 : 0
  }

  private enum LineOutcome { case goOn, quit }

  private func runLine(_ text: String) async -> LineOutcome {
    let line = LineParser.parse(text.utf8.last == .carriageReturn ? text.dropLast() : text[...])
    echo(line)
    if line.isEmpty { return .goOn }
    if source.keepsHistory, line.parsedCleanly {
      source.remember(String(line.display[...].trimmingWhitespace()))
    }
    if let problem = line.problem {
      report(problem, command: options.json ? line.display : nil)
      return .goOn
    }
    for (index, command) in line.commands.enumerated() {
      let position = line.commands.count > 1 ? index + 1 : nil
      let result: CommandResult
      switch command.result {
      case .failure(let error):
        result = .mistake(error)
      case .success(let invocation):
        // Only a signed-in session can be due for renewal (most script lines are signed out).
        if session.viewModel.state.session != nil, invocation.spec.renewsSessionFirst {
          await session.renewSessionIfDue()
        }
        let recorder = session.recorder
        let measured =
          session.coverage.coverage != nil || recorder != nil ? session.viewModel.state : nil
        let (eventsBefore, startedAt) =
          recorder != nil ? (session.events.total, session.now) : (0, nil)
        switch session.prepare(invocation) {
        case .finished(let finished): result = finished
        case .waits(let run): result = await run()
        }
        if let measured {
          session.coverage.coverage?.record(
            invocation, before: measured, after: session.viewModel.state)
          if let recorder, let startedAt {
            await session.recordStep(
              recorder, invocation: invocation, result: result, before: measured,
              eventsBefore: eventsBefore, startedAt: startedAt)
          }
        }
      }
      let shown = options.json ? command.displayText : nil
      switch result {
      case .done:
        writePending(command: shown)
      case .quit:
        writePending(command: shown)
        return .quit
      case .mistake(let error):
        report(error, command: shown, position: position)
        // A script without the secret it reads would only fail on from here: it stops.
        switch error {
        case .variableUnset, .entryCancelled: if !options.interactive { return .quit }
        default: break
        }
      case .failedExpectation(let message):
        report(message, command: shown, position: position)
      }
      if failed && options.bail { return .quit }
    }
    return .goOn
  }

  private var prompt: String {
    Renderer.prompt(session.viewModel.state, label: session.backend.label, style: session.style)
  }

  /// Prints the line as a transcript shows it: commands after their prompt, secrets masked;
  /// comments and blank lines as they are.
  private func echo(_ line: ParsedLine) {
    guard options.echo || options.playback != nil, !options.json else { return }
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
      session.viewModel.state, label: session.backend.label, style: plainStyle)
    if let playback = options.playback {
      playback.type(line.display, after: prompt, to: output)
    } else {
      output.line(prompt + line.display)
    }
  }

  /// Writes what the last command printed, as text or as its JSON object.
  private func writePending(command: String? = nil, problem: String? = nil) {
    if session.pendingLines.isEmpty, !options.json { return }
    let lines = session.pendingLines
    session.pendingLines = []
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
  private func report(_ error: ShellError, command: String?, position: Int? = nil) {
    report(error.text, command: command, position: position)
  }

  /// Reports a mistake or a failed expectation on standard error: `line N: text`.
  private func report(_ text: String, command: String?, position: Int? = nil) {
    failed = true
    var prefix = options.interactive ? "error" : "line \(lineNumber)"
    if let position { prefix += " (command \(position))" }
    writePending(command: command ?? (options.json ? "" : nil), problem: text)
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
