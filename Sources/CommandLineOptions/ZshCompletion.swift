/// The zsh completion script of a program: a `#compdef` function that hands each command's
/// options (with their help and what their values are) to `_arguments`, and a subcommand's
/// words to that subcommand's function.
struct ZshCompletion {
  let program: CommandDescription

  var script: String {
    let base = "_" + ShellQuote.identifier(program.name)
    var lines = [
      "#compdef \(program.name)",
      "# zsh completion for \(program.name); written by \(program.name) "
        + "--generate-completion-script zsh",
      "",
    ]
    for command in program.subcommands {
      lines += function(command, named: base + "_" + ShellQuote.identifier(command.name))
    }
    // `((word\:description …))` is split as the shell would: everything but letters and
    // digits is escaped.
    let commands = program.subcommands.map { command in
      evaluated(command.name) + "\\:" + evaluated(command.abstract)
    }
    lines += [
      "\(base)_first() {",
      "  _alternative \(ShellQuote.single("commands:command:((\(commands.joined(separator: " "))))")) \\",
      "    \(ShellQuote.single("operands:operand:" + action(program.operands)))",
      "}",
      "",
      "\(base)() {",
      "  if (( CURRENT > 2 )); then",
      "    case $words[2] in",
    ]
    lines += program.subcommands.map { command in
      "      \(command.name)) shift words; (( CURRENT-- )); "
        + "\(base)_\(ShellQuote.identifier(command.name)); return ;;"
    }
    lines += ["    esac", "  fi"]
    lines += arguments(
      program.options,
      operands: [
        "'1: :\(base)_first'", ShellQuote.single("*:operand:" + action(program.operands)),
      ])
    lines += ["}", "", "\(base) \"$@\""]
    return lines.joined(separator: "\n") + "\n"
  }

  private func function(_ command: CommandDescription, named name: String) -> [String] {
    var operands: [String] = []
    if command.operands != .none {
      operands.append(ShellQuote.single("*:operand:" + action(command.operands)))
    }
    return ["\(name)() {"]
      + arguments(command.completedOptions(program: program), operands: operands) + ["}", ""]
  }

  /// An `_arguments` call with one spec per option name, then the operands' specs.
  private func arguments(_ options: [OptionDescription], operands: [String]) -> [String] {
    var specs: [String] = []
    for option in options {
      let help = "[" + escape(option.summary, "[]:") + "]"
      // `::` marks a value that may be left out.
      let colon = option.valueIsOptional ? "::" : ":"
      let value = option.value.map { colon + escape($0, ":") + ":" + action(option.completion) }
      for name in option.names {
        specs.append(ShellQuote.single(name + help + (value ?? "")))
      }
    }
    specs += operands
    return ["  _arguments -s : \\"] + specs.dropLast().map { "    \($0) \\" }
      + specs.suffix(1).map { "    \($0)" }
  }

  /// What `_arguments` runs to offer a value of `kind`.
  private func action(_ kind: CompletionKind) -> String {
    switch kind {
    case .none: " "
    case .list(let words): "(" + words.map { escape($0, "() ") }.joined(separator: " ") + ")"
    case .file(let extensions) where extensions.isEmpty: "_files"
    // NB: a pattern of one parenthesised alternative, `*.(authflow)`, turns _arguments off.
    case .file(let extensions) where extensions.count == 1: "_files -g \"*.\(extensions[0])\""
    case .file(let extensions):
      "_files -g \"*.(" + extensions.joined(separator: "|") + ")\""
    case .directory: "_files -/"
    }
  }

  /// `text` with every character but letters and digits escaped by a backslash.
  private func evaluated(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if !(character.isLetter || character.isNumber) { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  /// `text` with backslashes and each of `characters` escaped by a backslash.
  private func escape(_ text: String, _ characters: String) -> String {
    var escaped = ""
    for character in text {
      if character == "\\" || characters.contains(character) { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }
}
