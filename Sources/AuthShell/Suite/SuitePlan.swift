import EngineSettings
import ScriptSuites

/// How one script runs in a suite: the arguments of its `authflow` process, or why it does not
/// run. A pure function of the script's `#!` options and the suite's options.
enum SuitePlan: Equatable, Sendable {
  /// Run `authflow` with these arguments, the script on standard input.
  case run(arguments: [String])
  /// Not run; the reason says why.
  case skip(reason: String)
  /// Not run, and failed: its `#!` line asks for what the suite does not give (or does not
  /// read as options); the reason says what.
  case fail(reason: String)

  /// The plan for `script`, whose `#!` line gives `header` (`nil` when it has none), in a suite
  /// with `options`. The header's options come first, so the suite's pass-through wins, as the
  /// command line wins over the `#!` line in `authflow FILE`; of the rest, the script gets only
  /// what keeps it in a sandbox (``ScriptLineAdmission``).
  init(header: [String]?, options: SuiteOptions, script: String) {
    var header = header ?? []
    let backend = options.shell.backend
    // A script on a Firebase emulator of its own runs wherever the suite runs no backend of
    // its choosing: it is as much a sandbox as the embedded backend on `:memory:`.
    let ownEmulator =
      (try? ShellOptions.parse(header, checkingBackends: false))?
      .isSandboxed(storeWhenNoneGiven: nil) == true
    if let asked = Self.backend(in: header), asked != backend,
      options.backendGiven || !(asked == .firebase && ownEmulator)
    {
      self = .skip(
        reason:
          "its #! line asks for the \(asked.rawValue) backend; the suite runs \(backend.rawValue)")
      return
    }
    if options.backendGiven { header = ScriptHeader.keeping(header, for: backend) }
    do {
      // On the embedded backend the suite gives each script a store of its own (below).
      header = try ScriptLineAdmission.admitted(
        header, commandLine: options.passThrough, script: script, program: "authflow test",
        storeWhenNoneGiven: ":memory:")
    } catch {
      self = .fail(reason: "authflow: \(error.text)")
      return
    }
    var arguments = header + options.passThrough
    // On the embedded backend a script gets a store of its own, reproducible secrets and quick
    // password hashes, each unless its #! line or the suite says otherwise.
    // NB: when the options do not parse, the script's own process says why, as a failure.
    if let effective = try? ShellOptions.parse(arguments),
      effective.backend == .embedded || effective.isSandboxed(storeWhenNoneGiven: nil)
    {
      var defaults: [String] = []
      if effective.backend == .embedded, effective.settings.store == nil {
        defaults += ["--store", ":memory:"]
      }
      if effective.settings.seed == nil, effective.isSandboxed(storeWhenNoneGiven: ":memory:") {
        defaults += ["--seed", "1"]
      }
      if effective.settings.given[EngineSetting.hashCost.name] == nil {
        defaults += ["--hash-cost", "4"]
      }
      arguments = defaults + arguments
    }
    self = .run(arguments: arguments + ["--echo"])
  }

  /// Whether it names its script (a failure's reason does): another script with the same
  /// `#!` line gets a plan of its own.
  var namesItsScript: Bool {
    if case .fail = self { return true }
    return false
  }

  /// The last `--backend` among `words` (options as the shell reads them), or `nil`.
  static func backend(in words: [String]) -> BackendKind? {
    let given = OptionWords.split(words).last {
      $0.option?.spec.name == "--backend" && !$0.lacksValue
    }
    return given.flatMap { BackendKind(rawValue: $0.value) }
  }
}
