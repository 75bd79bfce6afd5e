/// The fish completion script of a program: `complete -c` lines for each command's options
/// (with their help and what their values are), its subcommands and its operands, conditioned
/// on the subcommand the command line names.
struct FishCompletion {
  let program: CommandDescription

  var script: String {
    let name = program.name
    let base = "__" + ShellQuote.identifier(name)
    let names = program.subcommands.map(\.name).joined(separator: " ")
    var lines = [
      "# fish completion for \(name); written by \(name) --generate-completion-script fish",
      "",
      "# The subcommand the command line names (its first word), or nothing.",
      "function \(base)_command",
      "    set -l words (commandline -opc)",
      "    if test (count $words) -ge 2; and contains -- $words[2] \(names)",
      "        echo $words[2]",
      "    end",
      "end",
      "",
      "# Whether the command line names the subcommand $argv[1] (none: names none).",
      "function \(base)_in",
      "    set -l command (\(base)_command)",
      "    test \"$command\" = \"$argv[1]\"",
      "end",
      "",
      "complete -c \(name) -f",
    ]
    for command in [program] + program.subcommands {
      let isProgram = command.name == name
      let condition = "\(base)_in" + (isProgram ? "" : " " + command.name)
      if isProgram {
        for subcommand in program.subcommands {
          lines.append(
            "complete -c \(name) -n "
              + quote("test (count (commandline -opc)) -eq 1") + " -a \(subcommand.name) -d "
              + quote(subcommand.abstract))
        }
      }
      for option in command.completedOptions(program: program) {
        var line = "complete -c \(name) -n \(quote(condition))"
        for optionName in option.names {
          if optionName.hasPrefix("--") {
            line += " -l " + optionName.dropFirst(2)
          } else if optionName.count == 2 {
            line += " -s " + optionName.dropFirst()
          } else {
            line += " -o " + optionName.dropFirst()
          }
        }
        // A value that may be left out is offered, not required (no -r or -x).
        if option.value != nil, !option.valueIsOptional {
          line += " " + valueArguments(option.completion)
        }
        lines.append(line + " -d " + quote(option.summary))
      }
      if command.operands != .none {
        lines.append(
          "complete -c \(name) -n \(quote(condition)) " + valueArguments(command.operands))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The arguments of `complete` that say what a value of `kind` is.
  private func valueArguments(_ kind: CompletionKind) -> String {
    switch kind {
    case .none: "-x"
    case .list(let words): "-x -a " + quote(words.joined(separator: " "))
    case .file(let extensions) where extensions.isEmpty: "-r -F"
    case .file(let extensions):
      "-x -a "
        + quote(
          "(__fish_complete_suffix " + extensions.map { "." + $0 }.joined(separator: " ") + ")")
    case .directory: "-x -a " + quote("(__fish_complete_directories)")
    }
  }

  /// `text` as one single-quoted fish word (fish reads `\\` and `\'` inside).
  private func quote(_ text: String) -> String {
    "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
  }
}
