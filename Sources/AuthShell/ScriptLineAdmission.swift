/// What a run takes from a script's `#!` line. A script may come from anyone, and `authflow
/// FILE` and `authflow test` read its line: they take from it only options that keep the run
/// in a sandbox of its own (each option's ``ScriptLineRule``). What else the line asks for, the
/// command line must give; given there, the command line's value wins and the line's is set
/// aside (the kernel runs `./x.authflow` as `authflow OPTIONS ./x.authflow`, so an executed
/// script is run with what its line asks for, by the user's choice).
struct ScriptLineAdmission: Sendable {
  /// The line's words the run takes, in their order.
  var admitted: [String] = []
  /// The line's options that only the command line may give, each with its words.
  var refused: [[String]] = []
  /// The line's options that only the command line may give on a store other than
  /// `:memory:`, each with its words.
  var refusedOffMemory: [[String]] = []

  /// Sorts the options of `line` against those the command line gives (`given`), on a run
  /// whose store is `:memory:` (`onMemoryStore`) or not.
  init(line: [String], given: [String], onMemoryStore: Bool) {
    let given = OptionWords.split(given)
    for group in OptionWords.split(line) {
      guard let option = group.option else {
        // An operand (or `--`) names a file: which script runs is the command line's to say.
        refused.append(group.words)
        continue
      }
      if given.contains(where: group.isSameOption) { continue }
      if option.scriptLine.admits(group.value, onMemoryStore: onMemoryStore) {
        admitted += group.words
      } else if option.scriptLine == .onMemoryStore {
        refusedOffMemory.append(group.words)
      } else {
        refused.append(group.words)
      }
    }
  }

  /// The words of `line` (a `#!` line's options) that a run with `commandLine` takes; throws
  /// naming the options only the command line may give. `storeWhenNoneGiven` is the store the
  /// run gets when neither names one (the suite's `:memory:`; `nil`, the user's store).
  static func admitted(
    _ line: [String], commandLine: [String], script: String, program: String = "authflow",
    storeWhenNoneGiven: String? = nil
  ) throws(ShellError) -> [String] {
    // The line's last option must not take its value from the command line.
    if let cut = OptionWords.split(line).first(where: \.lacksValue) {
      throw .option(.needsValue(cut.words[0]))
    }
    let effective = try ShellOptions.parse(line + commandLine, checkingBackends: false)
    let onMemory = effective.isSandboxed(storeWhenNoneGiven: storeWhenNoneGiven)
    let admission = ScriptLineAdmission(line: line, given: commandLine, onMemoryStore: onMemory)
    guard admission.refused.isEmpty, admission.refusedOffMemory.isEmpty else {
      throw .scriptLineAsks(
        script: script, program: program, options: admission.refused,
        offMemory: admission.refusedOffMemory)
    }
    return admission.admitted
  }

  /// The command that runs the script at `path` whose `#!` line gives `line`: `authflow`, the
  /// line's options only the command line may give, and the path.
  static func command(toRun path: String, line: [String]) -> String {
    let effective = try? ShellOptions.parse(line, checkingBackends: false)
    let admission = ScriptLineAdmission(
      line: line, given: [], onMemoryStore: effective?.isSandboxed(storeWhenNoneGiven: nil) ?? false
    )
    return Lexer.line(
      ["authflow"] + (admission.refused + admission.refusedOffMemory).flatMap { $0 } + [path])
  }
}
