import CommandLineOptions

/// A small program with a subcommand, options of every completion kind and a variable: what
/// the manual page and completion script tests generate from.
enum SampleProgram {
  struct Settings {}

  static func option(
    _ names: [String], _ value: String?, _ help: [String], section: String = "main",
    environment: String? = nil, completion: CompletionKind? = nil
  ) -> OptionDescription {
    OptionSpec<Settings>(
      names, value, help, section: section, environment: environment, completion: completion
    ) { _, _ in }.described
  }

  static let program = CommandDescription(
    name: "sample", abstract: "a sample program", usage: ["[options] [FILE]"],
    discussion: ["It reads FILE.\n.dots and 'quotes' at a line's start stay text \\ …"],
    options: [
      option(["--backend"], "local|remote", ["where it runs (it's [local])"]),
      option(["--store"], "PATH|:memory:", ["the store"], environment: "SAMPLE_STORE"),
      option(["-v", "--verbose"], nil, ["say more: much more"], section: "output"),
      option(["--cache"], "DIR", ["a folder"], section: "output", completion: .directory),
    ],
    operands: .file(extensions: ["sample"]),
    subcommands: [
      CommandDescription(
        name: "draw", abstract: "draw the sample's graph", usage: ["draw [FILE.dot|FILE.svg]"],
        options: [option(["--scale"], "N", ["how big"], section: "draw")],
        operands: .file(extensions: ["dot", "svg"]), takesProgramOptions: true),
      CommandDescription(
        name: "users", abstract: "the users", usage: ["users export"],
        options: [option(["--format"], "plain|json", ["the format"], environment: "SAMPLE_STORE")],
        operands: .list(["export"])),
    ])
}
