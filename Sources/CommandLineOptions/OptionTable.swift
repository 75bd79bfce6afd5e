/// One command-line option: its names, its value, its help, where `--help` lists it, the
/// environment variable that gives it when the command line does not, and how it sets the
/// options. Parsing, checks and `--help` all read a table of these.
public struct OptionSpec<Options>: Sendable {
  /// The names, e.g. `-c`, `--command`.
  public let names: [String]
  /// The value's placeholder, e.g. `N`; `nil` for a flag.
  public let value: String?
  /// The help text, one line or more.
  public let help: [String]
  /// The `--help` heading it is listed under.
  public let section: String
  /// The environment variable that sets it when the option is not given.
  public let environment: String?
  /// A group it belongs to (e.g. a backend), for checks across options.
  public let group: String?
  /// What Tab offers for its value (by default what the placeholder says).
  public let completion: CompletionKind
  /// The key of a project's configuration file that gives it, if one does.
  public let config: ConfigKey?
  /// For a value that may be left out (`--present [PORT]`): whether a word is one. The word
  /// after the option is its value only when it is (`--present 8080`, but not `--present
  /// demo.authflow`); left out, the value is empty. `nil` for a value that must be given.
  public let optionalValue: (@Sendable (String) -> Bool)?
  /// Sets the options from the value (empty for a flag), or says what the value should be.
  public let apply: @Sendable (inout Options, String) throws(OptionValueError) -> Void

  /// An option with the given parts.
  public init(
    _ names: [String], _ value: String?, _ help: [String], section: String,
    environment: String? = nil, group: String? = nil, completion: CompletionKind? = nil,
    config: ConfigKey? = nil, optionalValue: (@Sendable (String) -> Bool)? = nil,
    apply: @escaping @Sendable (inout Options, String) throws(OptionValueError) -> Void
  ) {
    self.names = names
    self.value = value
    self.help = help
    self.section = section
    self.environment = environment
    self.group = group
    self.completion = completion ?? CompletionKind(placeholder: value)
    self.config = config
    self.optionalValue = optionalValue
    self.apply = apply
  }

  /// The option's main name, for messages.
  public var name: String { names.last ?? "" }

  /// Whether the option, given without `=`, takes `next` (the word after it, if any) as its
  /// value: a flag never does, a value that may be left out when `next` is one, any other
  /// value always (when there is no word, the parser says it needs one).
  public func takesValue(from next: String?) -> Bool {
    guard value != nil else { return false }
    guard let optionalValue else { return true }
    return next.map(optionalValue) ?? false
  }
}

/// What an option's value should have been, e.g. `a number from 4 to 14`.
public struct OptionValueError: Error, Equatable, Sendable {
  /// The kind of value the option takes.
  public var expected: String

  /// An error saying the value should be `expected`.
  public init(expected: String) {
    self.expected = expected
  }
}

/// Why a command line could not be read.
public enum OptionError: Error, Equatable, Sendable {
  /// An option no table lists.
  case unknown(String)
  /// An option that takes a value came last.
  case needsValue(String)
  /// A flag was given a value (`--flag=x`).
  case takesNoValue(String)
  /// An option's (or environment variable's) value is not one it takes.
  case badValue(option: String, expected: String)

  /// One line saying what was wrong and what would be right; `program` is how `--help` is run.
  public func text(program: String) -> String {
    switch self {
    case .unknown(let option):
      "unknown option '\(option.count > 24 ? String(option.prefix(24)) + "…" : option)'; "
        + "see \(program) --help"
    case .needsValue(let option): "\(option) needs a value; see \(program) --help"
    case .takesNoValue(let option): "\(option) takes no value"
    case .badValue(let option, let expected): "\(option) takes \(expected)"
    }
  }
}

/// A command line read against a table of options.
public struct ParsedCommandLine<Options> {
  /// The options, as the command line and the environment set them.
  public var options: Options
  /// The options given on the command line, in order.
  public var given: [OptionSpec<Options>]
  /// The arguments that are not options (every argument after `--`).
  public var operands: [String]
}

/// Reads command lines against a table of ``OptionSpec``s.
public enum OptionParser {
  /// Reads `arguments` into `options`: `--name value`, `--name=value`, flags, operands, `--`;
  /// then, for options not given, their environment variables from `environment` (a flag's
  /// variable is on when it is `1` or `true`, as Go reads booleans, off when `0` or `false`).
  public static func parse<Options>(
    _ arguments: [String], table: [OptionSpec<Options>], into options: Options,
    environment: [String: String] = [:]
  ) throws(OptionError) -> ParsedCommandLine<Options> {
    var parsed = ParsedCommandLine(options: options, given: [], operands: [])
    var remaining = arguments[...]
    var onlyOperands = false
    while let argument = remaining.popFirst() {
      if onlyOperands || !argument.hasPrefix("-") || argument == "-" {
        parsed.operands.append(argument)
        continue
      }
      if argument == "--" {
        onlyOperands = true
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      guard let spec = table.first(where: { $0.names.contains(name) }) else {
        throw .unknown(name)
      }
      let value: String
      if spec.value == nil {
        guard inline == nil else { throw .takesNoValue(name) }
        value = ""
      } else if let inline {
        value = inline
      } else if spec.optionalValue != nil {
        value = spec.takesValue(from: remaining.first) ? remaining.popFirst() ?? "" : ""
      } else if let next = remaining.popFirst() {
        value = next
      } else {
        throw .needsValue(name)
      }
      try apply(spec, value, named: name, to: &parsed.options)
      parsed.given.append(spec)
    }
    for spec in table where !parsed.given.contains(where: { $0.names == spec.names }) {
      guard let variable = spec.environment, let value = environment[variable], !value.isEmpty
      else { continue }
      if spec.value == nil {
        switch value.lowercased() {
        case "1", "t", "true": try apply(spec, "", named: variable, to: &parsed.options)
        case "0", "f", "false": continue
        default:
          throw .badValue(option: variable, expected: "true or false, not '\(value.prefix(20))'")
        }
      } else {
        try apply(spec, value, named: variable, to: &parsed.options)
      }
    }
    return parsed
  }

  private static func apply<Options>(
    _ spec: OptionSpec<Options>, _ value: String, named name: String, to options: inout Options
  ) throws(OptionError) {
    do {
      try spec.apply(&options, value)
    } catch {
      throw .badValue(option: name, expected: error.expected)
    }
  }

  /// The option lines of `--help`: each section's heading, then its options with their help
  /// in a column, and the environment variable each one reads.
  public static func usage<Options>(_ table: [OptionSpec<Options>], sections: [String]) -> [String]
  {
    var lines: [String] = []
    for section in sections {
      lines += ["", "\(section):"]
      for spec in table where spec.section == section {
        let synopsis = spec.names.joined(separator: ", ") + (spec.value.map { " " + $0 } ?? "")
        let column = 32
        let padding = max(1, column - 2 - synopsis.count)
        var help = spec.help
        if let variable = spec.environment { help.append("(env \(variable))") }
        lines.append("  " + synopsis + String(repeating: " ", count: padding) + help[0])
        lines += help.dropFirst().map { String(repeating: " ", count: column) + $0 }
      }
    }
    return lines
  }
}
