/// A command as parsed: which one, the name it was typed as, and the value its grammar made.
struct Invocation: Equatable, Sendable {
  /// The command.
  let spec: CommandSpec
  /// The name or alias typed.
  let typedName: String
  /// What its grammar parsed.
  let input: ParsedInput

  /// The words as they may be shown or stored: secrets masked.
  var displayWords: [String] { [typedName] + input.displayWords }

  /// ``displayWords`` as one line of text, quoted so it reads back the same.
  var displayText: String { Lexer.line(displayWords) }
}

/// One command of a line: what it parsed to, and its words as they may be shown.
struct ParsedCommand: Equatable, Sendable {
  /// The words as typed.
  let words: [String]
  /// The command, or what is wrong with it.
  let result: Result<Invocation, ShellError>

  /// The words with every secret masked: from the parsed command when it parsed, else only
  /// what is surely not a secret.
  var displayWords: [String] {
    switch result {
    case .success(let invocation):
      return invocation.displayWords
    case .failure:
      guard let name = words.first else { return [] }
      guard let spec = CommandTable.spec(named: name) else {
        // A word that is no command may be a secret typed at the wrong prompt: it is shown
        // only when it looks like a mistyped command.
        let shown = CommandTable.suggestion(for: name) == nil ? Redaction.mask : name
        return [shown] + (words.count > 1 ? [Redaction.mask] : [])
      }
      return [name] + spec.unparsedWords(words.dropFirst())
    }
  }

  /// ``displayWords`` as one line of text, quoted so it reads back the same.
  var displayText: String { Lexer.line(displayWords) }
}

/// A line, lexed once and parsed into its commands.
struct ParsedLine: Equatable, Sendable {
  /// The line as typed.
  let text: Substring
  /// Its commands.
  let commands: [ParsedCommand]
  /// What is wrong with its quoting, if anything; then none of its commands runs.
  let problem: ShellError?
  /// Whether a comment followed its commands; it is not shown or stored (it may hold anything).
  var hasComment = false

  /// Whether the line holds no command (blank or a comment).
  var isEmpty: Bool { commands.isEmpty && problem == nil }

  /// Whether every command parsed and the quoting is sound: only such lines are kept in
  /// history, so a secret typed as a command never is.
  var parsedCleanly: Bool {
    problem == nil && commands.allSatisfy { if case .success = $0.result { true } else { false } }
  }

  /// The line as it may be shown or stored: as typed when nothing in it is a secret, else
  /// rebuilt from its commands with the secrets masked.
  var display: String {
    if problem == nil, !hasComment, commands.allSatisfy({ $0.displayWords == $0.words }) {
      return String(text)
    }
    return commands.map(\.displayText).joined(separator: "; ")
  }
}

/// Lines to commands, through the lexer and the command table. Pure: it does not look at the
/// state, so where a command may run is checked when it runs.
enum LineParser {
  /// Lexes `line` once and parses each of its commands.
  static func parse(_ line: Substring) -> ParsedLine {
    let lexed = Lexer.lex(line)
    return ParsedLine(
      text: line,
      commands: lexed.commands.map { ParsedCommand(words: $0, result: parse(words: $0)) },
      problem: lexed.problem, hasComment: lexed.hasComment)
  }

  /// The command `words` spell, or what is wrong with them.
  static func parse(words: [String]) -> Result<Invocation, ShellError> {
    guard let name = words.first else {
      return .failure(.unknownCommand(name: nil, suggestion: nil))
    }
    guard let spec = CommandTable.spec(named: name) else {
      let suggestion = CommandTable.suggestion(for: name)
      return .failure(.unknownCommand(name: suggestion == nil ? nil : name, suggestion: suggestion))
    }
    do {
      return .success(
        Invocation(spec: spec, typedName: name, input: try spec.parse(words.dropFirst())))
    } catch {
      return .failure(error)
    }
  }
}
