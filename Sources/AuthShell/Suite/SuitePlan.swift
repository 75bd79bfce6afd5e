/// How one script runs in a suite: the arguments of its `authflow` process, or why it does not
/// run. A pure function of the script's `#!` options and the suite's options.
enum SuitePlan: Equatable, Sendable {
  /// Run `authflow` with these arguments, the script on standard input.
  case run(arguments: [String])
  /// Not run; the reason says why.
  case skip(reason: String)

  /// The plan for a script whose `#!` line gives `header` (`nil` when it has none), in a suite
  /// with `options`. The header's options come first, so the suite's pass-through wins, as the
  /// command line wins over the `#!` line in `authflow FILE`.
  init(header: [String]?, options: SuiteOptions) {
    var header = header ?? []
    let backend = options.shell.backend
    if let asked = Self.backend(in: header), asked != backend {
      self = .skip(reason: "its #! line asks for the \(asked) backend; the suite runs \(backend)")
      return
    }
    if options.backendGiven { header = ScriptHeader.keeping(header, for: backend) }
    var arguments = header + options.passThrough
    // On the embedded backend a script gets a store of its own, reproducible secrets and quick
    // password hashes, each unless its #! line or the suite says otherwise.
    // NB: when the options do not parse, the script's own process says why, as a failure.
    if let effective = try? ShellOptions.parse(arguments), effective.backend == "embedded" {
      var defaults: [String] = []
      if effective.store == nil { defaults += ["--store", ":memory:"] }
      if effective.seed == nil, (effective.store ?? ":memory:") == ":memory:" {
        defaults += ["--seed", "1"]
      }
      if effective.hashCost == nil { defaults += ["--hash-cost", "4"] }
      arguments = defaults + arguments
    }
    self = .run(arguments: arguments + ["--echo"])
  }

  /// The last `--backend` among `words` (options as the shell reads them), or `nil`.
  static func backend(in words: [String]) -> String? {
    var backend: String?
    var index = 0
    while index < words.count {
      let word = words[index]
      let name = String(word.prefix { $0 != "=" })
      let valued = ShellOptions.table.first { $0.names.contains(name) }?.value != nil
      if name == "--backend" {
        if let equals = word.firstIndex(of: "=") {
          backend = String(word[word.index(after: equals)...])
        } else if index + 1 < words.count {
          backend = words[index + 1]
        }
      }
      index += valued && !word.contains("=") ? 2 : 1
    }
    return backend
  }
}
