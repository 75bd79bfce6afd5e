/// A command as its manual page and completion scripts describe it, made from the same option
/// tables its parser reads: its name, what it does, its usage, its options by section, what its
/// operands are, and its subcommands (one level: a subcommand is the first word after the
/// program's name).
public struct CommandDescription: Sendable {
  /// The word that runs it (the program's name for the program itself).
  public var name: String
  /// What it does, in a few words.
  public var abstract: String
  /// Its usage lines, each after the program's name (`serve [options]`).
  public var usage: [String]
  /// Paragraphs about it.
  public var discussion: [String]
  /// Its own options, in the order `--help` lists them.
  public var options: [OptionDescription]
  /// The order of the options' sections.
  public var sections: [String]
  /// What its operands (words that are not options) are.
  public var operands: CompletionKind
  /// Whether it also takes the program's own options (passed through to the shell).
  public var takesProgramOptions: Bool
  /// Its subcommands, in the order the manual lists them.
  public var subcommands: [CommandDescription]

  /// A command with the given parts.
  public init(
    name: String, abstract: String, usage: [String], discussion: [String] = [],
    options: [OptionDescription], sections: [String]? = nil, operands: CompletionKind = .none,
    takesProgramOptions: Bool = false, subcommands: [CommandDescription] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.usage = usage
    self.discussion = discussion
    self.options = options
    var inOrder: [String] = []
    for option in options where !inOrder.contains(option.section) { inOrder.append(option.section) }
    self.sections = sections ?? inOrder
    self.operands = operands
    self.takesProgramOptions = takesProgramOptions
    self.subcommands = subcommands
  }

  /// The options it completes: its own, then the program's when it takes them.
  func completedOptions(program: CommandDescription) -> [OptionDescription] {
    let own = options
    guard takesProgramOptions, name != program.name else { return own }
    let names = Set(own.flatMap(\.names))
    return own + program.options.filter { names.isDisjoint(with: $0.names) }
  }
}
