/// What became of one script in a suite: passed, failed (and why), or skipped.
package struct ScriptOutcome: Equatable, Sendable {
  /// The verdict.
  package enum Verdict: Equatable, Sendable {
    /// Every command ran, every expectation held, the transcript matched.
    case passed
    /// Something did not; ``ScriptOutcome/problems`` says what.
    case failed
    /// Not run; the reason says why.
    case skipped(String)
  }

  /// The script.
  package var script: SuiteScript
  /// The verdict.
  package var verdict: Verdict
  /// How long it ran, in seconds.
  package var seconds = 0.0
  /// What went wrong, one line each: `PATH:LINE: expected …, got …`, a golden mismatch, …
  package var problems: [String] = []
  /// The end of the transcript, for a script that failed.
  package var tail: [String] = []
  /// The unified diff from the golden transcript to this run's.
  package var diff: [String] = []
  /// Whether `--update` wrote a new golden transcript.
  package var updated = false

  /// How many lines of the transcript a failure shows.
  package static let tailLength = 10
  /// How many lines of the script's standard error a failure shows.
  package static let problemLimit = 20

  /// A skipped script.
  package static func skipped(_ script: SuiteScript, reason: String) -> ScriptOutcome {
    ScriptOutcome(script: script, verdict: .skipped(reason))
  }

  /// An outcome with the given parts.
  package init(script: SuiteScript, verdict: Verdict) {
    self.script = script
    self.verdict = verdict
  }

  /// The outcome of `script`'s run. With `golden`, its transcript is compared with
  /// `NAME.transcript` when that file exists, or, with `update`, written there when it passed.
  package init(script: SuiteScript, run: ChildRun, golden: Bool, update: Bool) {
    self.script = script
    verdict = .passed
    seconds = run.seconds
    let errors = String(decoding: run.errors, as: UTF8.self).split(separator: "\n")
    problems = errors.prefix(Self.problemLimit).map { Self.located($0, in: script.path) }
    if errors.count > Self.problemLimit {
      problems.append("(and \(errors.count - Self.problemLimit) more lines on standard error)")
    }
    switch run.ending {
    case .exited(0): break
    case .exited(let status) where errors.isEmpty: problems.append("exited with status \(status)")
    case .exited: break
    case .signalled(let signal): problems.append("ended by signal \(signal)")
    case .timedOut(let limit):
      problems.append("still running after \(Self.format(limit)) s; stopped")
    case .notStarted(let reason): problems.append(reason)
    }
    let ran = run.ending == .exited(0)
    var failed = !ran
    let golden = golden ? script.transcriptPath : nil
    let name = golden?.split(separator: "/").last.map(String.init) ?? ""
    do {
      if let golden, update, ran {
        updated = try GoldenTranscript.update(golden, to: run.output)
      } else if let golden, !update, let expected = try GoldenTranscript.read(golden) {
        diff =
          expected == run.output
          ? []
          : LineDiff.unified(old: expected, new: run.output, oldName: name, newName: "this run")
        if !diff.isEmpty {
          problems.append("the transcript differs from \(name)")
          failed = true
        }
      }
    } catch {
      problems.append(error.text(name))
      failed = true
    }
    guard failed else { return }
    verdict = .failed
    if problems.isEmpty { problems.append("failed") }
    if !ran {
      let lines = String(decoding: run.output, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      tail = lines.dropLast(lines.last == "" ? 1 : 0).suffix(Self.tailLength).map(String.init)
    }
  }

  /// `line N: text` from the shell as `PATH:N: text`, as compilers say where; other lines as
  /// they are.
  package static func located(_ line: Substring, in path: String) -> String {
    guard line.hasPrefix("line ") else { return String(line) }
    let rest = line.dropFirst("line ".count)
    let number = rest.prefix { $0.isASCII && $0.isNumber }
    guard !number.isEmpty else { return String(line) }
    return "\(path):\(number)\(rest.dropFirst(number.count))"
  }

  /// Seconds with two decimals, as reports show them.
  package static func format(_ seconds: Double) -> String {
    let hundredths = Int((seconds * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
