import CommandLineOptions
import UserSeeds

/// `authflow` as its manual page and completion scripts describe it: the shell and each
/// subcommand, from the tables their command lines are read with, so neither can drift from
/// what the program accepts. `serve` lives in another module, which hands over its own.
enum AuthflowProgram {
  /// The program with every subcommand of ``Subcommand``; `serve` is the server's description.
  static func description(serve: CommandDescription) -> CommandDescription {
    let scripts = CompletionKind.file(extensions: ["authflow"])
    return CommandDescription(
      name: "authflow", abstract: ShellOptions.abstract,
      usage: ShellOptions.usages.map(\.synopsis),
      discussion: discussion, options: ShellOptions.table.map(\.described),
      sections: ShellOptions.sections, operands: scripts,
      subcommands: Subcommand.allCases.map { subcommand in
        switch subcommand {
        case .test:
          CommandDescription(
            name: "test", abstract: SuiteOptions.abstract, usage: [subcommand.synopsis],
            discussion: [SuiteOptions.about, SuiteOptions.closing].map(paragraph),
            options: SuiteOptions.table.map(\.described), operands: scripts,
            takesProgramOptions: true)
        case .play:
          CommandDescription(
            name: "play", abstract: Playback.abstract, usage: [subcommand.synopsis],
            discussion: [paragraph(Playback.about)], options: Playback.table.map(\.described),
            operands: scripts, takesProgramOptions: true)
        case .graph:
          CommandDescription(
            name: "graph", abstract: FlowGraph.abstract, usage: [subcommand.synopsis],
            discussion: [paragraph(FlowGraph.about)], options: FlowGraph.table.map(\.described),
            operands: .file(extensions: ["dot", "svg"]))
        case .serve: serve
        case .users:
          CommandDescription(
            name: "users", abstract: UsersCommand.abstract, usage: [subcommand.synopsis],
            discussion: [paragraph(UsersCommand.about)],
            options: UsersCommand.table.map(\.described), sections: UsersCommand.sections,
            operands: .list(["export"]))
        }
      })
  }

  /// What the manual says of the shell before its options.
  private static let discussion = [
    """
    authflow is the sign-in flow of an app (sign in, sign up, reset a password, confirm an \
    email, sign out) as a shell: each screen shows its fields and buttons, and commands press \
    them. It runs on an embedded GoTrue-compatible engine on SQLite (the default), a Supabase \
    project or authflow serve, or a Firebase project or its Auth emulator.
    """,
    """
    Without a FILE or -c, at a terminal, it is interactive, with line editing, history and \
    completion; otherwise it reads commands from FILE, -c or standard input, as a script. A \
    script's first line may be #!/usr/bin/env authflow OPTIONS.
    """,
  ]

  private static func paragraph(_ lines: [String]) -> String { lines.joined(separator: "\n") }
}
