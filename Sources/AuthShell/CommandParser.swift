import AuthFlow

/// What decides whether a command can be used right now.
public struct ShellContext: Equatable, Sendable {
  /// The screen on show.
  public var screen: AuthScreen
  /// Its form fields.
  public var fields: [AuthField]
  /// Whether a user is signed in.
  public var signedIn: Bool
  /// Whether the backend is the embedded engine.
  public var embeddedBackend: Bool
  /// The backend's name, for messages.
  public var backendName: String

  /// A context with the given parts.
  public init(
    screen: AuthScreen, fields: [AuthField], signedIn: Bool, embeddedBackend: Bool,
    backendName: String
  ) {
    self.screen = screen
    self.fields = fields
    self.signedIn = signedIn
    self.embeddedBackend = embeddedBackend
    self.backendName = backendName
  }
}

/// Words to commands, through the command table.
public enum CommandParser {
  /// The command `words` spell, or what is wrong with them. Pure: it does not look at state.
  public static func parse(_ words: [String]) throws(ShellError) -> (CommandSpec, Command) {
    guard let name = words.first else { throw ShellError("empty command") }
    guard let spec = CommandTable.spec(named: name) else {
      let shown = name.count > 24 ? String(name.prefix(24)) + "…" : name
      if let guess = suggestion(for: name) {
        throw ShellError(
          "unknown command '\(shown)'", hint: "did you mean '\(guess)'? Type help for the list")
      }
      throw ShellError("unknown command '\(shown)'", hint: "type help for the list")
    }
    return (spec, try spec.parse(words[1...]))
  }

  /// Throws when `command` cannot be used in `context`, naming where it can and what can be
  /// used here instead.
  public static func check(
    _ spec: CommandSpec, _ command: Command, in state: @autoclosure () -> ShellContext
  ) throws(ShellError) {
    if spec.availability == .anywhere { return }
    let context = state()
    switch spec.availability {
    case .anywhere:
      return
    case .embedded:
      guard context.embeddedBackend else {
        throw ShellError(
          "'\(spec.name)' belongs to the embedded backend",
          hint:
            "this shell uses the \(context.backendName) backend, whose emails go to real inboxes")
      }
    case .signedIn:
      guard context.signedIn else {
        throw ShellError(
          "'\(spec.name)' needs a signed-in user", hint: "sign in first: signin, then submit")
      }
    case .screens(let screens):
      if context.signedIn {
        throw ShellError(
          "'\(spec.name)' is a button of the sign-in screens, hidden while signed in",
          hint: "you can use: \(names(available: context).joined(separator: ", "))")
      }
      guard screens.contains(context.screen) else {
        let places = listing(screens.map(\.rawValue))
        throw ShellError(
          "'\(spec.name)' is on the \(places) screen\(screens.count > 1 ? "s" : "")",
          hint:
            "this screen (\(context.screen.rawValue)) has: \(buttons(on: context.screen).joined(separator: ", "))"
        )
      }
    case .fields:
      if context.signedIn {
        throw ShellError("the form is hidden while signed in", hint: "signout first")
      }
      let field: AuthField? =
        switch command {
        case .set(let field, _), .clear(let field): field
        default: nil
        }
      guard let field, !context.fields.contains(field) else { return }
      let list = context.fields.map(\.commandName).joined(separator: ", ")
      throw ShellError(
        "the \(context.screen.rawValue) screen has no \(field.commandName) field",
        hint: context.fields.isEmpty ? "open a form first: signin or create" : "its fields: \(list)"
      )
    }
  }

  /// `a`, `a and b`, `a, b and c`.
  static func listing(_ items: [String]) -> String {
    guard items.count > 1, let last = items.last else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }

  /// The buttons of `screen`, in table order.
  public static func buttons(on screen: AuthScreen) -> [String] {
    CommandTable.all.compactMap { spec in
      if case .screens(let screens) = spec.availability, screens.contains(screen) {
        spec.name
      } else {
        nil
      }
    }
  }

  /// Every command name usable in `context`.
  public static func names(available context: ShellContext) -> [String] {
    CommandTable.all.filter { isAvailable($0, in: context) }.map(\.name)
  }

  /// Whether `spec` can be used in `context` at all.
  public static func isAvailable(_ spec: CommandSpec, in context: ShellContext) -> Bool {
    switch spec.availability {
    case .anywhere: true
    case .embedded: context.embeddedBackend
    case .signedIn: context.signedIn
    case .screens(let screens): !context.signedIn && screens.contains(context.screen)
    case .fields: !context.signedIn && !context.fields.isEmpty
    }
  }

  /// The closest command name to a mistyped `name`, if one is close enough.
  static func suggestion(for name: String) -> String? {
    guard name.count <= 32 else { return nil }
    let typed = Array(name.lowercased().utf8)
    var best: (name: String, distance: Int)?
    for spec in CommandTable.all {
      for candidate in spec.names {
        let distance = editDistance(typed, Array(candidate.utf8))
        if distance <= 2, distance < (best?.distance ?? .max) { best = (spec.name, distance) }
      }
    }
    return best?.name
  }

  private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
