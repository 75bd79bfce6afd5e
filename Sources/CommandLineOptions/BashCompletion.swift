/// The bash completion script of a program: `_name` reads `COMP_WORDS` and `COMP_CWORD`, finds
/// the subcommand (the first word), and offers the value the option before the cursor takes,
/// the options of the command, or its operands.
struct BashCompletion {
  let program: CommandDescription

  var script: String {
    let function = "_" + ShellQuote.identifier(program.name)
    var lines = [
      "# bash completion for \(program.name); written by \(program.name) "
        + "--generate-completion-script bash",
      "",
      "\(function)_files() {",
      "  local IFS=$'\\n' extension",
      "  compopt -o filenames 2>/dev/null",
      "  if [[ $# -eq 0 ]]; then",
      "    COMPREPLY=($(compgen -f -- \"$cur\"))",
      "    return",
      "  fi",
      "  COMPREPLY=($(compgen -d -- \"$cur\"))",
      "  for extension in \"$@\"; do",
      "    COMPREPLY+=($(compgen -f -X \"!*.$extension\" -- \"$cur\"))",
      "  done",
      "}",
      "",
    ]
    for command in [program] + program.subcommands {
      lines += self.function(command)
    }
    lines += [
      "\(function)() {",
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
      "  # --name=value: bash splits at '=' (COMP_WORDBREAKS).",
      "  if [[ $cur == = ]]; then",
      "    cur=",
      "  elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then",
      "    prev=${COMP_WORDS[COMP_CWORD-2]}",
      "  fi",
      "  COMPREPLY=()",
      "  if [[ $COMP_CWORD -ge 2 ]]; then",
      "    case ${COMP_WORDS[1]} in",
    ]
    lines += program.subcommands.map { command in
      "      \(command.name)) \(function)_\(ShellQuote.identifier(command.name)); return ;;"
    }
    lines += [
      "    esac",
      "  fi",
      "  \(function)_root",
      "}",
      "",
      "complete -F \(function) \(program.name)",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The function for one command: values, then options, then operands.
  private func function(_ command: CommandDescription) -> [String] {
    let base = "_" + ShellQuote.identifier(program.name)
    let isProgram = command.name == program.name
    let name = isProgram ? base + "_root" : base + "_" + ShellQuote.identifier(command.name)
    let options = command.completedOptions(program: program)
    var lines = ["\(name)() {", "  case $prev in"]
    // A value that may be left out is not asked for: the operands are offered after it.
    for option in options where option.value != nil && !option.valueIsOptional {
      let pattern = option.names.joined(separator: "|")
      lines.append("    \(pattern)) \(action(option.completion)); return ;;")
    }
    let words = options.flatMap(\.names).joined(separator: " ")
    lines += [
      "  esac",
      "  if [[ $cur == -* ]]; then",
      "    COMPREPLY=($(compgen -W \(ShellQuote.single(words)) -- \"$cur\"))",
      "    return",
      "  fi",
    ]
    if isProgram, !program.subcommands.isEmpty {
      let names = program.subcommands.map(\.name).joined(separator: " ")
      lines += [
        "  if [[ $COMP_CWORD -eq 1 ]]; then",
        "    \(action(command.operands))",
        "    COMPREPLY+=($(compgen -W \(ShellQuote.single(names)) -- \"$cur\"))",
        "    return",
        "  fi",
      ]
    }
    lines += ["  \(action(command.operands))", "}", ""]
    return lines
  }

  /// The command that fills `COMPREPLY` with what `kind` offers for the word at the cursor.
  private func action(_ kind: CompletionKind) -> String {
    let base = "_" + ShellQuote.identifier(program.name)
    switch kind {
    case .none: return ":"
    case .list(let words):
      return "COMPREPLY=($(compgen -W \(ShellQuote.single(words.joined(separator: " "))) "
        + "-- \"$cur\"))"
    case .file(let extensions):
      return ([base + "_files"] + extensions.map(ShellQuote.single)).joined(separator: " ")
    case .directory:
      return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"))"
    }
  }
}
