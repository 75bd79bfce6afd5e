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
    lines.append(
      "help <command> explains one command; expect kinds: \(Expectation.kindNames.joined(separator: ", "))."
    )
    return lines
  }

  static func details(_ spec: CommandSpec) -> [String] {
    var lines = ["usage: \(spec.usage)", "  \(spec.summary)"]
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
    lines.append("  where: \(place)")
    lines += spec.details.map { "  " + $0 }
    return lines
  }

  private static func rows(_ specs: [CommandSpec]) -> [String] {
    specs.map { "  " + Renderer.pad($0.usage, 26) + $0.summary }
  }
}
