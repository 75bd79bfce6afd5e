/// A term of a manual section and what it means, e.g. a shell command and its summary.
public struct ManualEntry: Sendable, Equatable {
  /// The term, shown in bold.
  public var term: String
  /// What it means, a line or more.
  public var text: [String]

  /// An entry with the given parts.
  public init(_ term: String, _ text: [String]) {
    self.term = term
    self.text = text
  }
}

/// A section of a manual page beyond what the command tables say: paragraphs, then entries.
public struct ManualSection: Sendable, Equatable {
  /// The heading, e.g. `FILES`.
  public var title: String
  /// Paragraphs before the entries.
  public var paragraphs: [String]
  /// Terms and what they mean.
  public var entries: [ManualEntry]

  /// A section with the given parts.
  public init(_ title: String, paragraphs: [String] = [], entries: [ManualEntry] = []) {
    self.title = title
    self.paragraphs = paragraphs
    self.entries = entries
  }
}

/// A program's manual page in section 1, written in roff (`man -l` renders it) from its
/// ``CommandDescription``, as swift-argument-parser's `generate-manual` writes one from its
/// commands' declarations: every option of every command is on it, so it cannot drift.
public struct ManualPage: Sendable {
  /// The program, with its options and subcommands.
  public var program: CommandDescription
  /// The version in the page's footer.
  public var version: String
  /// Sections after the commands, before ENVIRONMENT (e.g. the shell's own commands).
  public var sections: [ManualSection]
  /// Variables beyond the options' own, for ENVIRONMENT.
  public var environment: [ManualEntry]
  /// Sections after ENVIRONMENT (FILES, EXIT STATUS, EXAMPLES, SEE ALSO).
  public var closingSections: [ManualSection]

  /// A page with the given parts.
  public init(
    program: CommandDescription, version: String, sections: [ManualSection] = [],
    environment: [ManualEntry] = [], closingSections: [ManualSection] = []
  ) {
    self.program = program
    self.version = version
    self.sections = sections
    self.environment = environment
    self.closingSections = closingSections
  }

  /// The page as roff, for `man -l`.
  public var roff: String {
    let name = program.name
    var lines = [
      ".TH \(name.uppercased()) 1 \"\" \"\(Roff.escape("\(name) \(version)"))\" \"User Commands\"",
      ".SH NAME", Roff.escape("\(name) - \(program.abstract)"), ".SH SYNOPSIS",
    ]
    for command in [program] + program.subcommands {
      for usage in command.usage { lines += [".B \(name)", Roff.escape(usage), ".br"] }
    }
    lines.removeLast()
    lines.append(".SH DESCRIPTION")
    lines += Roff.paragraphs(program.discussion, first: true)
    lines.append(".SH OPTIONS")
    for section in program.sections {
      lines.append(".SS \"\(Roff.escape(section))\"")
      lines += program.options.filter { $0.section == section }.flatMap(Roff.option)
    }
    if !program.subcommands.isEmpty { lines.append(".SH COMMANDS") }
    for command in program.subcommands { lines += subcommand(command) }
    for section in sections { lines += Roff.section(section) }
    lines += Roff.section(ManualSection("ENVIRONMENT", entries: variables + environment))
    for section in closingSections { lines += Roff.section(section) }
    return lines.joined(separator: "\n") + "\n"
  }

  private func subcommand(_ command: CommandDescription) -> [String] {
    var lines = [".SS \"\(Roff.escape("\(program.name) \(command.name)"))\""]
    lines += Roff.paragraphs(
      [command.abstract.prefix(1).uppercased() + command.abstract.dropFirst() + "."]
        + command.discussion, first: true)
    for section in command.sections {
      lines += [".PP", Roff.escape("Options (\(section)):")]
      lines += command.options.filter { $0.section == section }.flatMap(Roff.option)
    }
    if command.takesProgramOptions {
      lines += [".PP", Roff.escape("It also takes the shell's options (see OPTIONS).")]
    }
    return lines
  }

  /// The variables the options read, each with the options (and commands) it sets.
  private var variables: [ManualEntry] {
    var entries: [ManualEntry] = []
    for command in [program] + program.subcommands {
      let prefix = command.name == program.name ? program.name : "\(program.name) \(command.name)"
      for option in command.options {
        guard let variable = option.environment else { continue }
        let text = "sets \(prefix) \(option.name)"
        if let index = entries.firstIndex(where: { $0.term == variable }) {
          entries[index].text.append(text)
        } else {
          entries.append(ManualEntry(variable, [text]))
        }
      }
    }
    return entries
  }
}

extension OptionDescription {
  /// The option's main name.
  var name: String { names.last ?? "" }
}
