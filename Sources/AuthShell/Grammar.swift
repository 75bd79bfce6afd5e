import AuthFlow
import Clocks

/// What a command takes after its name, and the value it makes of those words. One grammar says
/// how the words parse, what Tab offers, how usage reads and which words may be shown, so the
/// four cannot drift; and the command's handler gets the parsed value with its own type.
struct Grammar<Value: Sendable>: Sendable {
  /// The synopsis after the command's name (`on|off`).
  let usage: String
  /// What the grammar expects, for error messages (`on or off`).
  let expected: String
  /// More lines `help <command>` shows (the kinds of `expect`).
  var details: [String] = []
  /// Parses the words; `nil` when they do not fit (then the command's usage is the error).
  private let read: @Sendable (ArraySlice<String>) throws(ShellError) -> Value?
  /// What Tab offers for the next word, after the words typed so far.
  let completions: @Sendable ([String], ShellContext) -> [String]
  /// The words of a value as they may be shown or stored: secrets masked.
  let display: @Sendable (Value) -> [String]
  /// Words that did not parse, as they may be shown or stored: the words the grammar knows
  /// survive, every other word is masked (it may be a secret typed in the wrong place).
  let unparsed: @Sendable (ArraySlice<String>) -> [String]
  /// The field a value names, for commands that act on a form's field.
  var field: @Sendable (Value) -> AuthField? = { _ in nil }

  init(
    usage: String, expected: String, details: [String] = [],
    read: @escaping @Sendable (ArraySlice<String>) throws(ShellError) -> Value?,
    completions: @escaping @Sendable ([String], ShellContext) -> [String] = { _, _ in [] },
    display: @escaping @Sendable (Value) -> [String],
    unparsed: @escaping @Sendable (ArraySlice<String>) -> [String] = Grammar.maskingAll
  ) {
    self.usage = usage
    self.expected = expected
    self.details = details
    self.read = read
    self.completions = completions
    self.display = display
    self.unparsed = unparsed
  }

  /// Parses the words after the name of `command`.
  func parse(_ words: ArraySlice<String>, command: String) throws(ShellError) -> Value {
    guard let value = try read(words) else {
      let usage = self.usage.isEmpty ? command : "\(command) \(self.usage)"
      throw .wrongArguments(command: command, expected: expected, usage: usage)
    }
    return value
  }

  /// Masks every word: none may be shown.
  static func maskingAll(_ words: ArraySlice<String>) -> [String] {
    words.isEmpty ? [] : [Redaction.mask]
  }

  /// Keeps the words `known` accepts, masks the others.
  static func masking(unless known: @escaping @Sendable (String) -> Bool)
    -> @Sendable (ArraySlice<String>) -> [String]
  {
    { words in words.map { known($0) ? $0 : Redaction.mask } }
  }
}

/// The value of a command that takes nothing.
struct NoArguments: Equatable, Sendable {}

extension Grammar where Value == NoArguments {
  /// Nothing.
  static var none: Grammar {
    Grammar(
      usage: "", expected: "no arguments", read: { $0.isEmpty ? NoArguments() : nil },
      display: { _ in [] }, unparsed: masking { _ in false })
  }
}

extension Grammar {
  /// One of these words, each standing for its value: `consent on|off`.
  static func choice(_ choices: KeyValuePairs<String, Value>) -> Grammar
  where Value: Equatable {
    let pairs = Array(choices).map { (word: $0.key, value: $0.value) }
    let words = pairs.map(\.word)
    return Grammar(
      usage: words.joined(separator: "|"),
      expected: listing(words, conjunction: "or"),
      read: { typed in
        guard typed.count == 1, let word = typed.first else { return nil }
        return pairs.first { $0.word == word }?.value
      },
      completions: { typed, _ in typed.isEmpty ? words : [] },
      display: { value in pairs.first { $0.value == value }.map { [$0.word] } ?? [] },
      unparsed: masking { words.contains($0) })
  }

  /// One of these words, or nothing (`mail [code|open]`): `none` stands for nothing.
  static func optionalChoice(_ choices: KeyValuePairs<String, Value>, none: Value) -> Grammar
  where Value: Equatable {
    let pairs = Array(choices).map { (word: $0.key, value: $0.value) }
    let words = pairs.map(\.word)
    return Grammar(
      usage: "[\(words.joined(separator: "|"))]",
      expected: listing(words + ["nothing"], conjunction: "or"),
      read: { typed in
        guard let word = typed.first else { return none }
        guard typed.count == 1 else { return nil }
        return pairs.first { $0.word == word }?.value
      },
      completions: { typed, _ in typed.isEmpty ? words : [] },
      display: { value in pairs.first { $0.value == value }.map { [$0.word] } ?? [] },
      unparsed: masking { words.contains($0) })
  }
}

extension Grammar where Value == AuthField {
  /// A field name: `clear <field>`.
  static var field: Grammar {
    var grammar = Grammar(
      usage: "<field>", expected: "one field",
      read: { words throws(ShellError) in
        guard words.count == 1, let name = words.first else { return nil }
        return try AuthField.named(name)
      },
      completions: { typed, context in typed.isEmpty ? context.fields.map(\.commandName) : [] },
      display: { [$0.commandName] },
      unparsed: masking { AuthField(commandName: $0) != nil })
    grammar.field = { $0 }
    return grammar
  }
}

extension Grammar where Value == AuthField? {
  /// A field name, or nothing: `clear [<field>]`.
  static var optionalField: Grammar {
    var grammar = Grammar(
      usage: "[<field>]", expected: "one field, or nothing",
      read: { words throws(ShellError) -> AuthField?? in
        guard let name = words.first else { return .some(nil) }
        guard words.count == 1 else { return nil }
        return .some(try AuthField.named(name))
      },
      completions: { typed, context in typed.isEmpty ? context.fields.map(\.commandName) : [] },
      display: { $0.map { [$0.commandName] } ?? [] },
      unparsed: masking { AuthField(commandName: $0) != nil })
    grammar.field = { $0 }
    return grammar
  }
}

/// What `set` was given: a field and its value, the environment variable its value is read
/// from, or nothing (then a secret is asked for unseen).
enum FieldInput: Equatable, Sendable {
  /// `set <field> <value>`.
  case value(AuthField, String)
  /// `set <field> $NAME` (or `${NAME}`): read from the environment when the command runs.
  case variable(AuthField, name: String)
  /// `set <field>`: asked for at the terminal.
  case ask(AuthField)

  /// The field set.
  var field: AuthField {
    switch self {
    case .value(let field, _), .variable(let field, _), .ask(let field): field
    }
  }
}

extension Grammar where Value == FieldInput {
  /// A field and, optionally, its value: `set <field> [value]`; a value `$NAME` (or `${NAME}`)
  /// is read from the environment when the command runs, `$$…` is a value starting with `$`.
  static var fieldValue: Grammar {
    var grammar = Grammar(
      usage: "<field> [value]", expected: "a field and its value",
      read: { words throws(ShellError) in
        guard let name = words.first else { return nil }
        let field = try AuthField.named(name)
        let rest = words.dropFirst()
        switch rest.count {
        case 0: return .ask(field)
        case 1:
          let value = rest[rest.startIndex]
          guard value.utf8.first == UInt8(ascii: "$") else { return .value(field, value) }
          if let name = EnvironmentReference.name(in: value) { return .variable(field, name: name) }
          return .value(field, value.hasPrefix("$$") ? String(value.dropFirst()) : value)
        default: return .value(field, rest.joined(separator: " "))
        }
      },
      completions: { typed, context in typed.isEmpty ? context.fields.map(\.commandName) : [] },
      display: { input in
        switch input {
        case .ask(let field): [field.commandName]
        case .value(let field, let value):
          [
            field.commandName,
            field.isSecret ? Redaction.mask : EnvironmentReference.escaped(value),
          ]
        case .variable(let field, let name): [field.commandName, "$" + name]
        }
      })
    grammar.field = { $0.field }
    return grammar
  }
}

extension Grammar where Value == FieldInput {
  /// The value of the secret `field` alone, or nothing (then it is asked for unseen):
  /// `change-password [password]`; `$NAME` reads the environment, as `set` does.
  static func secretValue(_ field: AuthField) -> Grammar {
    Grammar(
      usage: "[\(field.commandName)|$NAME]", expected: "one \(field.commandName), or nothing",
      read: { words in
        guard let value = words.first else { return .ask(field) }
        guard words.count == 1 else { return nil }
        if let name = EnvironmentReference.name(in: value) { return .variable(field, name: name) }
        return .value(field, value.hasPrefix("$$") ? String(value.dropFirst()) : value)
      },
      display: { input in
        switch input {
        case .ask: []
        case .value: [Redaction.mask]
        case .variable(_, let name): ["$" + name]
        }
      })
  }
}

extension Grammar where Value == String {
  /// A link from an email: `open <link>`. Its query carries the code, so it is masked.
  static var link: Grammar {
    Grammar(
      usage: "<link>", expected: "one link",
      read: { words in words.count == 1 ? words.first : nil },
      display: { [Redaction.maskingQuery(of: $0)] })
  }
}

/// A duration as typed, and in seconds.
struct TypedDuration: Equatable, Sendable {
  var seconds: Double
  var text: String
}

extension Grammar where Value == TypedDuration {
  /// A keyword and a duration: `clock advance <duration>`.
  static func duration(keyword: String) -> Grammar {
    Grammar(
      usage: "\(keyword) <duration>",
      expected: ClockDuration.examples,
      read: { words in
        guard words.count == 2, words.first == keyword, let text = words.last,
          let seconds = ClockDuration.seconds(text)
        else { return nil }
        return TypedDuration(seconds: seconds, text: text)
      },
      completions: { typed, _ in typed.isEmpty ? [keyword] : [] },
      display: { [keyword, $0.text] },
      unparsed: masking { $0 == keyword || ClockDuration.seconds($0) != nil })
  }
}

extension Grammar where Value == CommandSpec? {
  /// A command name, or nothing: `help [command]`. A word that names no command is not
  /// repeated: it may be a secret typed after `help`.
  static var commandName: Grammar {
    Grammar(
      usage: "[command]", expected: "at most one command name",
      read: { words throws(ShellError) in
        guard words.count <= 1 else { return nil }
        guard let name = words.first else { return .some(nil) }
        guard let spec = CommandTable.spec(named: name) else {
          throw .noHelp(suggestion: CommandTable.suggestion(for: name))
        }
        return .some(spec)
      },
      completions: { typed, _ in typed.isEmpty ? CommandTable.all.map(\.name) : [] },
      display: { spec in spec.map { [$0.name] } ?? [] },
      unparsed: masking { CommandTable.spec(named: $0) != nil })
  }
}

extension Grammar {
  /// A keyword naming one of `alternatives`, whose own grammar reads the rest: `expect state
  /// login`. Usage, completion, help and errors come from the alternatives; `display` shows a
  /// value with its keyword.
  static func keyed(
    _ alternatives: [(keyword: String, grammar: Grammar<Value>)], command: String,
    display: @escaping @Sendable (Value) -> [String]
  ) -> Grammar {
    let keywords = alternatives.map(\.keyword)
    return Grammar(
      usage: "<what> [value]", expected: "something to check",
      details: alternatives.map { alternative in
        [command, alternative.keyword, alternative.grammar.usage].filter { !$0.isEmpty }
          .joined(separator: " ")
      },
      read: { words throws(ShellError) in
        guard let keyword = words.first else {
          throw .unknownExpectation(given: false, kinds: keywords)
        }
        guard let alternative = alternatives.first(where: { $0.keyword == keyword }) else {
          throw .unknownExpectation(given: true, kinds: keywords)
        }
        return try alternative.grammar.parse(words.dropFirst(), command: "\(command) \(keyword)")
      },
      completions: { typed, context in
        guard let keyword = typed.first else { return keywords }
        return alternatives.first { $0.keyword == keyword }?.grammar.completions(
          Array(typed.dropFirst()), context) ?? []
      },
      display: display)
  }
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

extension AuthField {
  /// The field named `name`. An unknown name is never repeated in the error (`set S3cret` must
  /// not print the password it was meant to set); a field whose name is close is offered.
  static func named(_ name: String) throws(ShellError) -> AuthField {
    guard let field = AuthField(commandName: name) else {
      let typed = Array(name.lowercased().utf8)
      let closest = AuthField.allCases.map { field in
        (field, CommandTable.editDistance(typed, Array(field.commandName.utf8)))
      }.min { $0.1 < $1.1 }
      throw .unknownField(suggestion: closest.flatMap { $0.1 <= 2 ? $0.0 : nil })
    }
    return field
  }
}
