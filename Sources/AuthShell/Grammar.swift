import AuthFlow

/// What a command takes after its name. One grammar says how the words are parsed, what Tab
/// offers, how usage reads and which words are secrets, so the four cannot drift.
enum Grammar: Equatable, Sendable {
  /// Nothing.
  case none
  /// One of these words: `consent on|off`.
  case word([String])
  /// One of these words, or nothing: `mail [code|open]`.
  case optionalWord([String])
  /// A field name: `clear <field>`.
  case field
  /// A field and, optionally, its value: `set <field> [value]`; a value `$NAME` (or `${NAME}`)
  /// is read from the environment when the command runs, `$$…` is a value starting with `$`.
  case fieldValue
  /// A link from an email: `open <link>`. Its query carries the code, so it is masked.
  case link
  /// A keyword and a duration: `clock advance <duration>`.
  case duration(keyword: String)
  /// A command name, or nothing: `help [command]`.
  case commandName
  /// A check: `expect <what> [value]` (see ``ExpectationSpec``).
  case expectation
  /// `record FILE [--transcript]`, `record stop`, or nothing (what is being recorded).
  case recording

  /// The synopsis after the command's name.
  var usage: String {
    switch self {
    case .none: ""
    case .word(let words): words.joined(separator: "|")
    case .optionalWord(let words): "[\(words.joined(separator: "|"))]"
    case .field: "<field>"
    case .fieldValue: "<field> [value]"
    case .link: "<link>"
    case .duration(let keyword): "\(keyword) <duration>"
    case .commandName: "[command]"
    case .expectation: "<what> [value]"
    case .recording: "[FILE [--transcript]|stop]"
    }
  }

  /// What the grammar expects, for error messages: `on or off`, `one field`.
  private var expected: String {
    switch self {
    case .none: "no arguments"
    case .word(let words): listing(words).replacing(" and ", with: " or ")
    case .optionalWord(let words): listing(words + ["nothing"]).replacing(" and ", with: " or ")
    case .field: "one field"
    case .fieldValue: "a field and its value"
    case .link: "one link"
    case .duration: "a duration such as 90s, 15m, 25h or 1h30m, up to 3650d"
    case .commandName: "at most one command name"
    case .expectation: "something to check"
    case .recording: "a file to record to (and --transcript), stop, or nothing"
    }
  }

  /// Parses the words after the name of `command`.
  func parse(_ words: ArraySlice<String>, command: String) throws(ShellError) -> Arguments {
    var wrong: ShellError {
      let usage = self.usage.isEmpty ? command : "\(command) \(self.usage)"
      return .wrongArguments(command: command, expected: expected, usage: usage)
    }
    switch self {
    case .none:
      guard words.isEmpty else { throw wrong }
      return .none
    case .word(let choices):
      guard words.count == 1, let word = words.first, choices.contains(word) else { throw wrong }
      return .word(word)
    case .optionalWord(let choices):
      guard let word = words.first else { return .none }
      guard words.count == 1, choices.contains(word) else { throw wrong }
      return .word(word)
    case .field:
      guard words.count == 1, let name = words.first else { throw wrong }
      return .field(try Self.field(named: name))
    case .fieldValue:
      guard let name = words.first else { throw wrong }
      let field = try Self.field(named: name)
      let rest = words.dropFirst()
      switch rest.count {
      case 0: return .fieldValue(field, nil)
      case 1:
        let value = rest[rest.startIndex]
        guard value.utf8.first == UInt8(ascii: "$") else { return .fieldValue(field, value) }
        if let name = EnvironmentReference.name(in: value) {
          return .fieldVariable(field, name: name)
        }
        return .fieldValue(field, value.hasPrefix("$$") ? String(value.dropFirst()) : value)
      default: return .fieldValue(field, rest.joined(separator: " "))
      }
    case .link:
      guard words.count == 1, let link = words.first else { throw wrong }
      return .link(link)
    case .duration(let keyword):
      guard words.count == 2, words.first == keyword, let text = words.last,
        let seconds = DurationParser.seconds(text)
      else { throw wrong }
      return .duration(seconds: seconds, text: text)
    case .commandName:
      guard words.count <= 1 else { throw wrong }
      guard let name = words.first else { return .commandName(nil) }
      // A word that names no command is not repeated: it may be a secret typed after `help`.
      guard CommandTable.spec(named: name) != nil else {
        throw .noHelp(suggestion: CommandTable.suggestion(for: name))
      }
      return .commandName(name)
    case .expectation:
      return .expectation(try ExpectationSpec.parse(words))
    case .recording:
      if words.isEmpty { return .record(.status) }
      if Array(words) == ["stop"] { return .record(.stop) }
      let transcript = words.contains("--transcript")
      let paths = words.filter { $0 != "--transcript" }
      guard paths.count == 1, let path = paths.first, !path.hasPrefix("-"),
        words.count == (transcript ? 2 : 1)
      else { throw wrong }
      return .record(.start(path: path, transcript: transcript))
    }
  }

  /// What Tab offers for the next word, after `typed` words of arguments.
  func completions(after typed: [String], in context: ShellContext) -> [String] {
    switch self {
    case .none, .link: []
    case .word(let words), .optionalWord(let words): typed.isEmpty ? words : []
    case .field, .fieldValue: typed.isEmpty ? context.fields.map(\.commandName) : []
    case .duration(let keyword): typed.isEmpty ? [keyword] : []
    case .commandName: typed.isEmpty ? CommandTable.all.map(\.name) : []
    case .expectation: ExpectationSpec.completions(after: typed)
    case .recording: typed.isEmpty ? ["stop"] : typed.count == 1 ? ["--transcript"] : []
    }
  }

  /// The argument words as they may be shown or stored when they did not parse: the words the
  /// grammar knows survive; every other word is masked (it may be a secret typed in the wrong
  /// place), and after a value that may hold spaces, the rest is one mask.
  func unparsedWords(_ words: ArraySlice<String>) -> [String] {
    switch self {
    case .none, .word, .optionalWord, .field, .duration, .commandName, .recording:
      return words.map { knows($0) ? $0 : Redaction.mask }
    case .fieldValue, .link, .expectation:
      return words.isEmpty ? [] : [Redaction.mask]
    }
  }

  /// Whether `word` is one the grammar names (a choice, a field, a command, a keyword) or a
  /// value of its own shape (a duration), so that showing it shows nothing typed by mistake.
  private func knows(_ word: String) -> Bool {
    switch self {
    case .none, .fieldValue, .link, .expectation: false
    case .word(let words), .optionalWord(let words): words.contains(word)
    case .field: AuthField(commandName: word) != nil
    case .duration(let keyword): word == keyword || DurationParser.seconds(word) != nil
    case .commandName: CommandTable.spec(named: word) != nil
    case .recording: word == "stop" || word == "--transcript"
    }
  }

  static func field(named name: String) throws(ShellError) -> AuthField {
    guard let field = AuthField(commandName: name) else {
      // Never named in the error (`set S3cret` must not print the password it was meant to
      // set); a field whose name is close is offered instead.
      let typed = Array(name.lowercased().utf8)
      let closest = AuthField.allCases.map { field in
        (field, CommandTable.editDistance(typed, Array(field.commandName.utf8)))
      }.min { $0.1 < $1.1 }
      throw .unknownField(suggestion: closest.flatMap { $0.1 <= 2 ? $0.0 : nil })
    }
    return field
  }
}

/// What a grammar parsed.
enum Arguments: Equatable, Sendable {
  /// Nothing.
  case none
  /// One word of a choice.
  case word(String)
  /// A field.
  case field(AuthField)
  /// A field and its value, if one was given.
  case fieldValue(AuthField, String?)
  /// A field and the environment variable its value is read from.
  case fieldVariable(AuthField, name: String)
  /// A link.
  case link(String)
  /// A duration in seconds, and as it was typed.
  case duration(seconds: Double, text: String)
  /// A command name, if one was given.
  case commandName(String?)
  /// A check.
  case expectation(Expectation)
  /// What `record` is asked to do.
  case record(RecordRequest)

  /// The words as they may be shown or stored: secrets masked.
  func displayWords(grammar: Grammar) -> [String] {
    switch self {
    case .none: []
    case .word(let word): [word]
    case .field(let field): [field.commandName]
    case .fieldValue(let field, nil): [field.commandName]
    case .fieldValue(let field, let value?):
      [field.commandName, field.isSecret ? Redaction.mask : EnvironmentReference.escaped(value)]
    case .fieldVariable(let field, let name): [field.commandName, "$" + name]
    case .link(let link): [Redaction.maskingQuery(of: link)]
    case .duration(_, let text):
      if case .duration(let keyword) = grammar { [keyword, text] } else { [text] }
    case .commandName(let name): name.map { [$0] } ?? []
    case .expectation(let expectation): expectation.displayWords
    case .record(.status): []
    case .record(.stop): ["stop"]
    case .record(.start(let path, let transcript)): [path] + (transcript ? ["--transcript"] : [])
    }
  }
}

/// What `record` is asked to do.
enum RecordRequest: Equatable, Sendable {
  /// Start recording to `path`; with `transcript`, save the replay's transcript beside it.
  case start(path: String, transcript: Bool)
  /// Stop, and write the file.
  case stop
  /// Tell what is being recorded.
  case status
}

/// `$NAME` and `${NAME}` in a value: the environment variable it is read from. Names are
/// those of the environment's convention (capitals, digits and `_`, not starting with a
/// digit), so an ordinary value that happens to start with `$` stays a value.
enum EnvironmentReference {
  /// The variable `word` names, or `nil` when it is a value.
  static func name(in word: String) -> String? {
    var name = Substring(word)
    guard name.first == "$" else { return nil }
    name = name.dropFirst()
    if name.first == "{" {
      guard name.last == "}" else { return nil }
      name = name.dropFirst().dropLast()
    }
    return isName(name) ? String(name) : nil
  }

  /// Whether `text` is a variable's name: `[A-Z_][A-Z0-9_]*`, at most 64 characters.
  static func isName(_ text: Substring) -> Bool {
    guard let first = text.utf8.first, text.utf8.count <= 64, !(0x30...0x39).contains(first)
    else { return false }
    return text.utf8.allSatisfy {
      (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_")
    }
  }

  /// `value` as `set` reads it back: one that would read as a variable (or starts with `$$`)
  /// gets another `$`.
  static func escaped(_ value: String) -> String {
    value.hasPrefix("$") && (name(in: value) != nil || value.hasPrefix("$$")) ? "$" + value : value
  }
}

/// Durations such as `90s`, `15m`, `25h`, `2d` or `1h30m`, up to ``longest``.
enum DurationParser {
  /// The longest duration accepted: ten years, far past every lifetime the flow has (codes
  /// 24 h, sessions 1 h), and short enough that no date arithmetic can overflow.
  static let longest: Double = 3_650 * 86_400

  static func seconds(_ text: String) -> Double? {
    guard text.utf8.count <= 32 else { return nil }
    var total = 0.0
    var number = ""
    for character in text {
      if character.isASCII, character.isNumber {
        number.append(character)
        continue
      }
      guard let value = Double(number) else { return nil }
      switch character {
      case "s": total += value
      case "m": total += value * 60
      case "h": total += value * 3_600
      case "d": total += value * 86_400
      default: return nil
      }
      number = ""
    }
    return number.isEmpty && total > 0 && total <= longest ? total : nil
  }
}
