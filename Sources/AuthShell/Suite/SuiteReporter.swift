import ScriptSuites

/// What `authflow test` prints while a suite runs: a line per script in the scripts' order, a
/// live progress line at a terminal, or TAP version 13; then the summary line.
final class SuiteReporter {
  /// How results are shown.
  enum Mode: Equatable, Sendable {
    /// `ok NAME (0.12 s)` / `FAIL NAME …` / `skip NAME: …`, one line per script, in order.
    case lines
    /// One progress line, redrawn; only failures stay on screen.
    case progress
    /// TAP version 13.
    case tap
  }

  private let mode: Mode
  private let output: ShellOutput
  private let scripts: [SuiteScript]
  private var outcomes: [ScriptOutcome?]
  private var nextInOrder = 0
  private var startedCount = 0
  /// How many scripts will run (the rest are skipped), for the progress line.
  var runCount: Int
  private var progressLine = ""

  /// A reporter of `scripts` in `mode`, writing to `output`.
  init(scripts: [SuiteScript], mode: Mode, output: ShellOutput) {
    self.scripts = scripts
    self.mode = mode
    self.output = output
    outcomes = Array(repeating: nil, count: scripts.count)
    runCount = scripts.count
    if mode == .tap {
      output.line("TAP version 13")
      output.line("1..\(scripts.count)")
    }
  }

  /// Script `index` has started.
  func started(_ index: Int) {
    startedCount += 1
    guard mode == .progress else { return }
    progressLine = String(
      "[\(startedCount)/\(runCount)] running \(scripts[index].name)".prefix(79))
    output.text("\r\u{1B}[K" + progressLine)
    output.flush()
  }

  /// Script `index` has finished (or was skipped).
  func finished(_ index: Int, _ outcome: ScriptOutcome) {
    outcomes[index] = outcome
    switch mode {
    case .progress:
      guard outcome.verdict == .failed else { return }
      output.text("\r\u{1B}[K")
      for line in Self.lines(for: outcome) { output.line(line) }
      output.text(progressLine)
      output.flush()
    case .lines, .tap:
      while nextInOrder < outcomes.count, let next = outcomes[nextInOrder] {
        nextInOrder += 1
        for line in mode == .tap ? Self.tap(next, number: nextInOrder) : Self.lines(for: next) {
          output.line(line)
        }
      }
      output.flush()
    }
  }

  /// Prints the summary line, `N passed, N failed[, N skipped]`, and returns it.
  @discardableResult
  func summarise(_ outcomes: [ScriptOutcome]) -> String {
    let summary = Self.summary(outcomes)
    if mode == .progress { output.text("\r\u{1B}[K") }
    output.line(mode == .tap ? "# " + summary : summary)
    output.flush()
    return summary
  }

  /// `N passed, N failed`, with `, N skipped` when any were.
  static func summary(_ outcomes: [ScriptOutcome]) -> String {
    let passed = outcomes.filter { $0.verdict == .passed }.count
    let failed = outcomes.filter { $0.verdict == .failed }.count
    let skipped = outcomes.count - passed - failed
    return "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
  }

  /// The lines of one outcome: its verdict line, and for a failure what went wrong, the end of
  /// its transcript and the diff from its golden transcript.
  static func lines(for outcome: ScriptOutcome) -> [String] {
    let time = ScriptOutcome.format(outcome.seconds) + " s"
    switch outcome.verdict {
    case .passed:
      return ["ok \(outcome.script.name) (\(time)\(outcome.updated ? ", transcript updated" : ""))"]
    case .skipped(let reason):
      return ["skip \(outcome.script.name): \(reason)"]
    case .failed:
      var lines = ["FAIL \(outcome.script.name) (\(time))"]
      lines += outcome.problems.map { "  " + $0 }
      if !outcome.tail.isEmpty {
        lines.append("  the transcript's last \(outcome.tail.count) lines:")
        lines += outcome.tail.map { "  | " + $0 }
      }
      lines += outcome.diff.map { "  " + $0 }
      return lines
    }
  }

  /// The TAP lines of outcome `number` (from 1): `ok`/`not ok`, a `# SKIP` directive, and a
  /// YAML block for a failure.
  static func tap(_ outcome: ScriptOutcome, number: Int) -> [String] {
    // NB: `#` starts a directive in a TAP description.
    let name = outcome.script.name.replacing("#", with: "\\#")
    switch outcome.verdict {
    case .passed:
      return ["ok \(number) - \(name)"]
    case .skipped(let reason):
      return ["ok \(number) - \(name) # SKIP \(reason)"]
    case .failed:
      var lines = ["not ok \(number) - \(name)", "  ---"]
      lines.append("  duration_ms: \(Int((outcome.seconds * 1_000).rounded()))")
      for (key, block) in [
        ("message", outcome.problems), ("transcript_tail", outcome.tail), ("diff", outcome.diff),
      ] where !block.isEmpty {
        lines.append("  \(key): |2-")
        lines += block.map { "    " + $0 }
      }
      lines.append("  ...")
      return lines
    }
  }
}
