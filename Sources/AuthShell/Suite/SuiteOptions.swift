import CommandLineOptions
import ScriptSuites

#if canImport(Glibc)
  import Glibc
#endif

/// The command line of `authflow test`: its own options, the paths to search for scripts, and
/// the shell's options, passed through to every script.
struct SuiteOptions: Equatable, Sendable {
  /// Files and folders to search for `*.authflow` scripts.
  var paths: [String] = []
  /// How many scripts run at once.
  var jobs = SuiteOptions.defaultJobs
  /// `--junit FILE`: where to write the JUnit XML report.
  var junit: String?
  /// `--tap`: TAP version 13 on standard output instead of one line per script.
  var tap = false
  /// `--update`: rewrite the golden transcripts instead of comparing them.
  var update = false
  /// How long one script may run, in seconds.
  var timeLimit = 60.0
  /// `--coverage`: report which parts of the flow the suite reached.
  var coverage = false
  /// `--coverage-graph FILE`: draw the flow with the reached transitions (`.dot` or `.svg`).
  var coverageGraph: String?
  /// `--help`.
  var help = false
  /// The shell options every script gets, as they were given.
  var passThrough: [String] = []
  /// The pass-through options as the shell reads them.
  var shell = ShellOptions()
  /// Whether the pass-through names the backend (then the options of other backends on a
  /// script's `#!` line are set aside, as `authflow --backend … FILE` does).
  var backendGiven = false

  /// The most scripts that run at once.
  static let jobLimit = SuitePool.jobLimit

  /// The number of cores, within 1…``jobLimit``.
  static var defaultJobs: Int {
    min(max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1), jobLimit)
  }

  /// Reads the arguments after `authflow test`: its own options (below), shell options (they
  /// pass through, as everything after `--` does) and paths (default `examples`).
  static func parse(_ arguments: [String]) throws(SuiteError) -> SuiteOptions {
    var own: [String] = []
    var passThrough: [String] = []
    var paths: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        passThrough += remaining
        break
      }
      guard argument.hasPrefix("-"), argument != "-" else {
        paths.append(argument)
        continue
      }
      let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
      let words: [String]
      if let spec = table.first(where: { $0.names.contains(name) }) {
        words = take(argument, valued: spec.value != nil, from: &remaining)
        own += words
      } else if let spec = ShellOptions.table.first(where: { $0.names.contains(name) }) {
        words = take(argument, valued: spec.takesValue(from: remaining.first), from: &remaining)
        passThrough += words
      } else {
        throw .option(.unknown(name))
      }
    }
    var options: SuiteOptions
    do {
      options = try OptionParser.parse(own, table: table, into: SuiteOptions()).options
    } catch {
      throw .option(error)
    }
    options.paths = paths.isEmpty ? ["examples"] : paths
    options.passThrough = passThrough
    do {
      options.shell = try ShellOptions.parse(passThrough)
    } catch {
      throw .passThrough(error)
    }
    let shell = options.shell
    if let file = shell.file { throw .notForScripts("'\(file.prefix(40))'") }
    if !shell.commands.isEmpty { throw .notForScripts("-c") }
    if shell.json { throw .notForScripts("--json") }
    if shell.present != nil { throw .notForScripts("--present") }
    if shell.help || shell.version { throw .notForScripts(shell.help ? "--help" : "--version") }
    if shell.generateManual { throw .notForScripts("--generate-manual") }
    if shell.completionScript != nil { throw .notForScripts("--generate-completion-script") }
    options.backendGiven = passThrough.contains { $0 == "--backend" || $0.hasPrefix("--backend=") }
    if options.update, shell.backend != .embedded {
      throw .updateNeedsEmbedded(backend: shell.backend)
    }
    return options
  }

  /// `argument` and, for an option that takes a value not given with `=`, the next word.
  private static func take(
    _ argument: String, valued: Bool, from remaining: inout ArraySlice<String>
  ) -> [String] {
    guard valued, !argument.contains("="), let value = remaining.popFirst() else {
      return [argument]
    }
    return [argument, value]
  }

  /// `authflow test --help`, written from the option table.
  static var usage: String {
    var lines = [
      "authflow test: \(abstract).",
      "",
      "usage: authflow test [options] [PATH...] [shell options] [-- shell options]",
      "",
    ]
    lines += about
    lines += OptionParser.usage(table, sections: ["suite"])
    lines += [""] + closing
    return lines.joined(separator: "\n")
  }

  /// What `authflow test` does, in a few words.
  static let abstract = "run *.authflow scripts as a suite, each in a process of its own"

  /// What `--help` says before the options.
  static let about = [
    "PATH is a script or a folder searched for *.authflow scripts (default: examples).",
    "Each script runs as authflow [#! line's options] [shell options] --echo, on a fresh",
    "XDG_DATA_HOME and XDG_STATE_HOME; on the embedded backend with --store :memory:,",
    "--seed 1 and --hash-cost 4 unless its #! line or the shell options say otherwise.",
    "NAME.transcript beside NAME.authflow is its golden transcript, compared byte for byte;",
    "it must be a regular file (a link is refused), as must a script found in a folder.",
    "A script whose #! line asks for another backend than the suite's is skipped.",
    "The slowest scripts start first, by their last run's time (kept in",
    "$XDG_STATE_HOME/authflow/test-durations), else by size. With as many jobs as the",
    "CPUs the suite may use, each job runs its scripts on a CPU of its own.",
  ]

  /// What `--help` says after the options.
  static let closing = [
    "Shell options (see authflow --help), such as --backend supabase --supabase-url URL,",
    "pass through to every script. Exit status: 0 when every script passed, 1 when one",
    "failed, 2 for a bad command line.",
  ]
}

extension SuiteOptions {
  /// The options of `authflow test` itself, in the order `--help` lists them.
  static let table: [OptionSpec<SuiteOptions>] = [
    OptionSpec(
      ["-j", "--jobs"], "N", ["how many scripts run at once, 1-\(jobLimit) (default: the cores)"],
      section: "suite"
    ) { options, value throws(OptionValueError) in
      guard let jobs = Int(value), (1...jobLimit).contains(jobs) else {
        throw OptionValueError(expected: "a number from 1 to \(jobLimit)")
      }
      options.jobs = jobs
    },
    OptionSpec(["--junit"], "FILE", ["also write a JUnit XML report to FILE"], section: "suite") {
      options, value in options.junit = value
    },
    OptionSpec(
      ["--tap"], nil, ["print TAP version 13 instead of a line per script"], section: "suite"
    ) { options, _ in options.tap = true },
    OptionSpec(
      ["--update"], nil, ["write each passing script's transcript instead of comparing it"],
      section: "suite"
    ) { options, _ in options.update = true },
    OptionSpec(
      ["--coverage"], nil, ["report the screens, transitions, errors and banners reached"],
      section: "suite"
    ) { options, _ in options.coverage = true },
    OptionSpec(
      ["--coverage-graph"], "FILE",
      ["draw the flow to FILE.dot or FILE.svg (Graphviz), the reached transitions in bold"],
      section: "suite"
    ) { options, value throws(OptionValueError) in
      guard value.hasSuffix(".dot") || value.hasSuffix(".svg") else {
        throw OptionValueError(expected: "a file name ending in .dot or .svg")
      }
      options.coverageGraph = value
    },
    OptionSpec(
      ["--time-limit"], "SECONDS", ["stop a script that runs longer (default 60)"],
      section: "suite"
    ) { options, value throws(OptionValueError) in
      guard let seconds = Double(value), seconds >= 0.1, seconds <= 3_600 else {
        throw OptionValueError(expected: "seconds from 0.1 to 3600; the default is 60")
      }
      options.timeLimit = seconds
    },
    OptionSpec(["-h", "--help"], nil, ["print this help and exit"], section: "suite") {
      options, _ in options.help = true
    },
  ]
}
