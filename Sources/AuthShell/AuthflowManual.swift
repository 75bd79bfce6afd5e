import CommandLineOptions

/// The manual page authflow(1): the program's description (``AuthflowProgram``), the shell's
/// commands from ``CommandTable``, and what no table says (environment, files, exit status,
/// examples).
enum AuthflowManual {
  /// The page, for `authflow --generate-manual`.
  static func page(serve: CommandDescription, version: String) -> ManualPage {
    ManualPage(
      program: AuthflowProgram.description(serve: serve), version: version,
      sections: [shellCommands], environment: environment,
      closingSections: [files, exitStatus, examples, seeAlso])
  }

  /// The shell's commands, from the table the shell dispatches, helps and completes with.
  static var shellCommands: ManualSection {
    ManualSection(
      "SHELL COMMANDS",
      paragraphs: [
        "Typed at the prompt or written in a script, one per line or separated by ;. "
          + "help lists those of the current screen; help COMMAND explains one."
      ],
      entries: CommandTable.all.map { spec in
        ManualEntry(
          spec.usage,
          [spec.summary]
            + (spec.aliases.isEmpty ? [] : ["Also: " + spec.aliases.joined(separator: ", ") + "."]))
      })
  }

  private static let environment = [
    ManualEntry(
      "SUPABASE_URL, SUPABASE_ANON_KEY",
      ["the Supabase project, when --supabase-url and --supabase-key are not given"]),
    ManualEntry(
      "FIREBASE_PROJECT_ID, FIREBASE_API_KEY",
      ["the Firebase project, when --firebase-project and --firebase-key are not given"]),
    ManualEntry(
      "FIREBASE_AUTH_EMULATOR_HOST",
      ["the Firebase Auth emulator, when --firebase-emulator is not given"]),
    ManualEntry("XDG_DATA_HOME", ["where the embedded store lives (default ~/.local/share)"]),
    ManualEntry(
      "XDG_STATE_HOME", ["where the history and saved sessions live (default ~/.local/state)"]),
    ManualEntry("NO_COLOR, TERM", ["no colour when NO_COLOR is set or TERM is dumb"]),
  ]

  private static let files = ManualSection(
    "FILES",
    entries: [
      ManualEntry(
        "$XDG_DATA_HOME/authflow/auth.db",
        [
          "the embedded backend's store (SQLite), shared with authflow serve. A new store has "
            + "the demo accounts \(DemoAccountsText.accounts); reset-demo puts them back."
        ]),
      ManualEntry("$XDG_STATE_HOME/authflow/history", ["the interactive shell's history"]),
      ManualEntry(
        "$XDG_STATE_HOME/authflow/test-durations",
        ["how long each script took last time; authflow test starts the slowest first"]),
      ManualEntry(
        "*.authflow, *.transcript",
        ["scripts, and the golden transcripts authflow test compares their output with"]),
    ])

  private static let exitStatus = ManualSection(
    "EXIT STATUS",
    paragraphs: [
      "0 when every command ran and every expect held (authflow test: every script passed), "
        + "1 otherwise (authflow serve: it could not start), 2 for a bad command line."
    ])

  private static let examples = ManualSection(
    "EXAMPLES",
    entries: [
      ManualEntry("authflow", ["the interactive shell on the embedded backend"]),
      ManualEntry(
        "authflow --store :memory: -c 'signin; set email test@example.com; set password $PASS; submit'",
        ["sign in from a script, the password from the environment"]),
      ManualEntry(
        "authflow test examples", ["run the example scripts and compare their transcripts"]),
      ManualEntry(
        "authflow serve --port 9999", ["a local GoTrue server for an app's Supabase client"]),
      ManualEntry(
        "authflow --backend supabase --supabase-url http://127.0.0.1:9999",
        ["the shell on that server"]),
      ManualEntry(
        "authflow --generate-completion-script bash > ~/.local/share/bash-completion/completions/authflow",
        ["complete authflow's command line in bash"]),
    ])

  private static let seeAlso = ManualSection(
    "SEE ALSO",
    paragraphs: [
      "sqlite3(1), dot(1); GoTrue (github.com/supabase/auth) and the Firebase Auth emulator, whose APIs authflow serve speaks."
    ])
}
