/// The shells `--generate-completion-script` writes for (swift-argument-parser's spelling).
public enum CompletionShell: String, CaseIterable, Sendable {
  /// bash, with `complete -F`.
  case bash
  /// zsh, a `#compdef` function over `_arguments`.
  case zsh
  /// fish, `complete -c` lines.
  case fish

  /// `bash|zsh|fish`, the option's placeholder.
  public static let choices = allCases.map(\.rawValue).joined(separator: "|")

  /// The script that completes `program`'s command lines in this shell: its options and
  /// their values, its subcommands and theirs, files where a file is expected.
  public func script(for program: CommandDescription) -> String {
    switch self {
    case .bash: BashCompletion(program: program).script
    case .zsh: ZshCompletion(program: program).script
    case .fish: FishCompletion(program: program).script
    }
  }

  /// The file a package installs the script as, under its prefix (`share/…`).
  public func installedPath(program: String) -> String {
    switch self {
    case .bash: "share/bash-completion/completions/\(program)"
    case .zsh: "share/zsh/site-functions/_\(program)"
    case .fish: "share/fish/vendor_completions.d/\(program).fish"
    }
  }
}

/// Quoting for the shells' single-quoted words.
enum ShellQuote {
  /// `text` as one POSIX single-quoted word.
  static func single(_ text: String) -> String {
    "'" + text.replacingAll("'", with: "'\\''") + "'"
  }

  /// A name made of `text` for a shell function: letters, digits and `_`.
  static func identifier(_ text: String) -> String {
    String(text.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }
}

extension String {
  /// The string with every `target` replaced by `replacement`.
  func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
