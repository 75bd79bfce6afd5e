import CommandLineOptions

extension Playback {
  /// The options of `authflow play` itself, in the order `--help` lists them; the shell's
  /// options pass through.
  static let table: [OptionSpec<Playback>] = [
    OptionSpec(
      ["--pace"], "MS", ["milliseconds per typed character, 0 to 2000 (default 40)"],
      section: "playback"
    ) { playback, value throws(OptionValueError) in
      guard let pace = Int(value), (0...2_000).contains(pace) else {
        throw OptionValueError(expected: "milliseconds per character, 0 to 2000 (default 40)")
      }
      playback.pace = pace
    },
    OptionSpec(
      ["--step"], nil, ["wait for Enter before every command, not only at # pause"],
      section: "playback"
    ) { playback, _ in playback.step = true },
    OptionSpec(["-h", "--help"], nil, ["print this help and exit"], section: "playback") {
      playback, _ in playback.help = true
    },
  ]

  /// What `authflow play` does, in a few words.
  static let abstract = "a presenter's playback of a script"

  /// What `--help` says before the options.
  static let about = [
    "Each command of FILE is typed out after its prompt at a human pace, then run; secrets",
    "are typed as their mask. A # pause comment waits for Enter (at a terminal).",
  ]

  /// `authflow play --help`.
  static var usage: String {
    var lines = [
      "authflow play: \(abstract).", "", "usage: authflow \(Subcommand.play.synopsis)", "",
    ]
    lines += about
    lines += OptionParser.usage(table, sections: ["playback"])
    lines += [
      "", "Shell options (see authflow --help), such as --backend, apply to the script;",
      "--present shows the audience the app's screen in a browser (at a terminal, Enter starts).",
    ]
    return lines.joined(separator: "\n")
  }
}
