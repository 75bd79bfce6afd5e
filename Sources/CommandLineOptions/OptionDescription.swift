/// An option as `--help`, the manual page and the completion scripts show it: an
/// ``OptionSpec`` without its `apply`, so tables of different options can be listed together.
public struct OptionDescription: Sendable, Equatable {
  /// The names, e.g. `-c`, `--command`.
  public var names: [String]
  /// The value's placeholder; `nil` for a flag.
  public var value: String?
  /// Whether the value may be left out (``OptionSpec/optionalValue``).
  public var valueIsOptional = false
  /// The help text, one line or more.
  public var help: [String]
  /// The heading it is listed under.
  public var section: String
  /// The environment variable that sets it when the option is not given.
  public var environment: String?
  /// What Tab offers for its value.
  public var completion: CompletionKind
  /// The key of a project's configuration file that gives it, if one does.
  public var configKey: String? = nil

  /// The help as one line.
  public var summary: String { help.joined(separator: " ") }
}

extension OptionSpec {
  /// The option without its `apply`.
  public var described: OptionDescription {
    OptionDescription(
      names: names, value: value, valueIsOptional: optionalValue != nil, help: help,
      section: section, environment: environment, completion: completion,
      configKey: config?.path)
  }
}
