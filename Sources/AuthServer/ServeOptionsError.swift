import CommandLineOptions

/// Why `authflow serve` cannot start with its command line: a bad option, or a project file
/// (`--config`) it cannot use, or options that cannot go together.
enum ServeOptionsError: Error, Equatable, Sendable {
  /// The command line or a variable.
  case option(OptionError)
  /// The project's file: one line naming the file, the line and the key.
  case config(String)
  /// Options that cannot go together, or a value read outside the table: one line saying why.
  case invalid(String)

  /// One line saying what was wrong and what would be right.
  func text(program: String) -> String {
    switch self {
    case .option(let error): error.text(program: program)
    case .config(let text), .invalid(let text): text
    }
  }
}
