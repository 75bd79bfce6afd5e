import ScriptSuites

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// `authflow test [PATH…]`: runs scripts as a suite, each in an `authflow` process of its own,
/// several at once, and reports each (and JUnit XML or TAP for CI).
public enum SuiteMain {
  /// Runs `authflow test` with `arguments` (after `test`); returns the exit status: 0 when
  /// every script passed, 1 when one failed, 2 for a bad command line.
  public static func run(arguments: [String], environment: [String: String]) -> Int32 {
    run(
      arguments: arguments, environment: environment, program: thisProgram(),
      output: .standardStreams(), terminal: isatty(1) == 1)
  }

  /// Runs the suite with `program` as each script's `authflow`, writing to `output`; a
  /// `terminal` gets a progress line instead of a line per script.
  static func run(
    arguments: [String], environment: [String: String], program: String, output: ShellOutput,
    terminal: Bool
  ) -> Int32 {
    let options: SuiteOptions
    let scripts: [SuiteScript]
    do throws(SuiteError) {
      options = try SuiteOptions.parse(arguments)
      if options.help {
        output.line(SuiteOptions.usage)
        output.flush()
        return 0
      }
      do throws(SuiteScriptsError) {
        scripts = try SuiteScript.find(in: options.paths)
      } catch {
        throw SuiteError.scripts(error)
      }
    } catch {
      output.error("authflow test: \(error.text)")
      return 2
    }
    let clock = ContinuousClock()
    let start = clock.now
    // Each script's run appends what it reached to one file, read back at the end.
    var environment = environment
    let coveragePath: String? =
      options.coverage || options.coverageGraph != nil
      ? (environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        + "/authflow-coverage-\(getpid()).jsonl" : nil
    if let coveragePath {
      unlink(coveragePath)
      environment["AUTHFLOW_COVERAGE"] = coveragePath
    }
    defer { if let coveragePath { unlink(coveragePath) } }
    let outcomes = run(
      scripts, options: options, program: program, environment: environment,
      reporter: SuiteReporter(
        scripts: scripts, mode: options.tap ? .tap : terminal ? .progress : .lines, output: output))
    let (seconds, attoseconds) = (clock.now - start).components
    if let path = options.junit {
      let xml = JUnitReport.xml(outcomes, seconds: Double(seconds) + Double(attoseconds) / 1e18)
      do {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: url, options: .atomic)
      } catch {
        output.error("authflow test: cannot write \(path)")
        return 2
      }
    }
    if let coveragePath {
      let reached = FlowCoverage.merged(from: coveragePath)
      if options.coverage {
        for line in reached.report() { output.line(line) }
        output.flush()
      }
      if let graph = options.coverageGraph {
        if let problem = FlowGraph.write(FlowCoverage.dot(reached: reached), to: graph) {
          output.error("authflow test: \(problem)")
          return 2
        }
      }
    }
    return outcomes.contains { $0.verdict == .failed } ? 1 : 0
  }

  /// Runs `scripts` and reports each to `reporter`, then the summary; returns the outcomes in
  /// the scripts' order.
  static func run(
    _ scripts: [SuiteScript], options: SuiteOptions, program: String,
    environment: [String: String], reporter: SuiteReporter
  ) -> [ScriptOutcome] {
    var outcomes = scripts.map { ScriptOutcome.skipped($0, reason: "not run") }
    var planned: [(index: Int, job: SuitePool.Job, size: Int, path: String)] = []
    var notRun = Set<Int>()
    // Most scripts share their #! line, and a plan names its script only when it fails.
    var plans: [[String]?: SuitePlan] = [:]
    for (index, script) in scripts.enumerated() {
      if let refusal = script.refusal {
        outcomes[index] = ScriptOutcome(script: script, verdict: .failed)
        outcomes[index].problems = [refusal]
        notRun.insert(index)
        continue
      }
      let header = ScriptHeader.firstLine(of: script.path).flatMap(ScriptHeader.options(inShebang:))
      let plan =
        plans[header].flatMap { $0.namesItsScript ? nil : $0 }
        ?? SuitePlan(header: header, options: options, script: script.path)
      plans[header] = plan
      switch plan {
      case .skip(let reason):
        outcomes[index] = .skipped(script, reason: reason)
        notRun.insert(index)
      case .fail(let reason):
        outcomes[index] = ScriptOutcome(script: script, verdict: .failed)
        outcomes[index].problems = [reason]
        notRun.insert(index)
      case .run(let arguments):
        var status = stat()
        let size = stat(script.path, &status) == 0 ? Int(status.st_size) : 0
        planned.append(
          (
            index, SuitePool.Job(arguments: arguments, input: script.path), size,
            absolutePath(script.path)
          ))
      }
    }
    // The slowest scripts start first (by their last run's time, else by size), so that no
    // long one runs alone at the end while the other jobs have nothing left to do; reports
    // keep the scripts' order.
    let durationsPath = SuiteDurations.path(environment)
    var durations = SuiteDurations.load(from: durationsPath)
    planned = durations.order(planned.map { ($0.path, $0.size) }).map { planned[$0] }
    let jobs = planned.map(\.job)
    let scriptOfJob = planned.map(\.index)
    reporter.runCount = jobs.count
    // Scripts that do not run are reported first where they stand; a line-per-script report
    // waits for the scripts before them.
    for (index, outcome) in outcomes.enumerated() where notRun.contains(index) {
      reporter.finished(index, outcome)
    }
    // Goldens are recorded on the embedded backend; elsewhere prompts and codes differ.
    let golden = options.shell.backend == .embedded
    let pool = SuitePool(
      program: program, environment: environment, jobs: options.jobs,
      timeLimit: options.timeLimit,
      cpus: SuitePool.cpus(forJobs: options.jobs, allowed: SuitePool.allowedCPUs()))
    pool.run(jobs) { job in
      reporter.started(scriptOfJob[job])
    } finished: { job, run in
      let index = scriptOfJob[job]
      outcomes[index] = ScriptOutcome(
        script: scripts[index], run: run, golden: golden, update: options.update)
      reporter.finished(index, outcomes[index])
      switch run.ending {
      case .notStarted: break
      default: durations.seconds[planned[job].path] = run.seconds
      }
    }
    reporter.summarise(outcomes)
    durations.save(to: durationsPath, latest: planned.map(\.path))
    return outcomes
  }

  /// `path` from the root: as given when it starts with `/`, else under the working folder.
  static func absolutePath(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }

  /// The running executable: `/proc/self/exe`, else the path it was started as.
  static func thisProgram() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if count > 0 {
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let name = CommandLine.arguments.first ?? "authflow"
    guard name.contains("/"), let resolved = realpath(name, nil) else { return name }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
