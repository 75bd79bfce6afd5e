/// Help, written from the command table so it cannot drift from what the shell accepts.
enum HelpText {
  static func overview(_ context: ShellContext) -> [String] {
    var lines: [String] = []
    let here = CommandTable.all.filter { spec in
      if case .screens = spec.availability { spec.isAvailable(in: context) } else { false }
    }
    if context.signedIn {
      lines.append("Signed in:")
      lines += rows(CommandTable.all.filter { $0.availability == .signedIn })
    } else {
      lines.append("Buttons of this screen (\(context.screen.rawValue)):")
      lines += rows(here)
      if !context.fields.isEmpty {
        lines.append(
          "Fields of this screen: \(context.fields.map(\.commandName).joined(separator: ", "))")
        lines += rows(CommandTable.all.filter { $0.availability == .fields })
      }
    }
    lines.append("Anywhere:")
    lines += rows(CommandTable.all.filter { $0.availability == .anywhere })
    let backend = CommandTable.all.filter { spec in
      if case .feature = spec.availability { spec.isAvailable(in: context) } else { false }
    }
    if !backend.isEmpty {
      lines.append("This backend (\(context.backend.rawValue)):")
      lines += rows(backend)
    }
    if context.features.contains(.demoAccounts) {
      lines += wrap("Demo accounts: \(DemoAccountsText.accounts).", indent: "  ")
    }
    lines += wrap(
      "help <command> explains one command; expect kinds: "
        + "\(Expectation.kindNames.joined(separator: ", ")).", indent: "  ")
    return lines
  }

  static func details(_ spec: CommandSpec) -> [String] {
    var lines = ["usage: \(spec.usage)"] + wrap("  " + spec.summary, indent: "  ")
    if !spec.aliases.isEmpty { lines.append("  also: \(spec.aliases.joined(separator: ", "))") }
    let place: String =
      switch spec.availability {
      case .screens(let screens):
        "on the \(screens.map(\.rawValue).joined(separator: ", ")) screen, signed out"
      case .fields: "on screens with a form, signed out"
      case .signedIn: "while signed in"
      case .anywhere: "anywhere"
      case .feature(let feature): "anywhere, on a backend with \(feature.phrase)"
      }
    lines += wrap("  where: \(place)", indent: "    ")
    lines += spec.details.flatMap { wrap("  " + $0, indent: "    ") }
    return lines
  }

  /// The widest a line of help is: the width of the screens' tables.
  static let width = 100

  /// The column where a row's summary starts.
  private static let summaryColumn = 28

  /// One row per command: its usage, then its summary from column 28, wrapped there; a usage
  /// too long for its column has the summary on the lines below.
  private static func rows(_ specs: [CommandSpec]) -> [String] {
    let indent = String(repeating: " ", count: summaryColumn)
    return specs.flatMap { spec in
      let usage = "  " + spec.usage
      guard usage.count < summaryColumn else {
        return [usage] + wrap(indent + spec.summary, indent: indent)
      }
      return wrap("  " + Renderer.pad(spec.usage, summaryColumn - 2) + spec.summary, indent: indent)
    }
  }

  /// `line` broken at spaces into lines of at most ``width`` columns, the ones after the first
  /// starting with `indent`; a word longer than a line stays whole.
  static func wrap(_ line: String, indent: String) -> [String] {
    guard line.count > width else { return [line] }
    var lines: [String] = []
    var rest = Substring(line)
    while rest.count > width {
      let limit = rest.index(rest.startIndex, offsetBy: width)
      // The last space at or before the limit that is not part of the leading indent.
      let lead = rest.prefix(while: { $0 == " " }).count
      guard
        let space = rest[..<limit].dropFirst(lead).lastIndex(of: " ")
          ?? rest[limit...].firstIndex(of: " ")
      else { break }
      lines.append(String(rest[..<space]))
      rest = Substring(indent) + rest[rest.index(after: space)...]
    }
    lines.append(String(rest))
    return lines
  }
}
