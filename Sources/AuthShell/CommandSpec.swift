import AuthFlow

/// One command of the shell, declared once: its names, where it applies, its grammar, its
/// help, how it is shown as a button, and what it does. Dispatch, help, completion, the
/// wrong-screen hint, redaction and the screen's buttons all read this declaration.
final class CommandSpec: Sendable {
  /// The name typed.
  let name: String
  /// Other names that do the same.
  let aliases: [String]
  /// Where it can be used.
  let availability: Availability
  /// What it takes after its name.
  let grammar: Grammar
  /// What it does, in one line.
  let summary: String
  /// Where it shows as a button, and with which label.
  let buttons: [Button]
  /// What it does.
  let effect: Effect

  init(
    _ name: String, aliases: [String] = [], _ availability: Availability,
    grammar: Grammar = .none, _ summary: String, buttons: [Button] = [], effect: Effect
  ) {
    self.name = name
    self.aliases = aliases
    self.availability = availability
    self.grammar = grammar
    self.summary = summary
    self.buttons = buttons
    self.effect = effect
  }

  /// Every name the command answers to.
  var names: [String] { [name] + aliases }

  /// The synopsis, e.g. `consent on|off`.
  var usage: String { grammar.usage.isEmpty ? name : "\(name) \(grammar.usage)" }

  /// Whether the command can be used in `context` at all.
  func isAvailable(in context: ShellContext) -> Bool {
    switch availability {
    case .anywhere: true
    case .feature(let feature): context.features.contains(feature)
    case .signedIn: context.signedIn
    case .screens(let screens): !context.signedIn && screens.contains(context.screen)
    case .fields: !context.signedIn && !context.fields.isEmpty
    }
  }

  /// Whether the command can be used in `state`, quickly: no context is built unless this
  /// says no (or cannot tell, for a field the arguments name), when the full check explains.
  func isAvailable(on state: AuthFlowState, arguments: Arguments, features: Set<BackendFeature>)
    -> Bool
  {
    let signedIn = state.session != nil
    switch availability {
    case .anywhere: return true
    case .feature(let feature): return features.contains(feature)
    case .signedIn: return signedIn
    case .screens(let screens): return !signedIn && screens.contains(state.navigation.screen)
    case .fields:
      switch arguments {
      case .field(let field), .fieldValue(let field, _), .fieldVariable(let field, _):
        return !signedIn && state.navigation.fields.contains(field)
      default:
        return false
      }
    }
  }

  /// Throws when the command cannot be used in `context` with `arguments`, naming where it can
  /// be used and what can be used here instead.
  func checkAvailable(in context: ShellContext, arguments: Arguments) throws(ShellError) {
    switch availability {
    case .anywhere:
      return
    case .feature(let feature):
      guard context.features.contains(feature) else {
        throw .notOnThisBackend(command: name, feature: feature, backend: context.backend)
      }
    case .signedIn:
      guard context.signedIn else { throw .needsSignIn(command: name) }
    case .screens(let screens):
      if context.signedIn {
        throw .hiddenWhileSignedIn(command: name, available: CommandTable.names(in: context))
      }
      guard screens.contains(context.screen) else {
        throw .wrongScreen(
          command: name, screens: screens, here: context.screen,
          buttons: CommandTable.buttonNames(on: context.screen))
      }
    case .fields:
      if context.signedIn { throw .formHidden }
      let field: AuthField? =
        switch arguments {
        case .field(let field), .fieldValue(let field, _), .fieldVariable(let field, _): field
        default: nil
        }
      guard let field, !context.fields.contains(field) else { return }
      throw .noSuchField(field, screen: context.screen, fields: context.fields)
    }
  }
}

/// Where a command can be used.
enum Availability: Equatable, Sendable {
  /// On these screens, while signed out: the screens' buttons.
  case screens([AuthScreen])
  /// On any screen with form fields, while signed out.
  case fields
  /// While signed in.
  case signedIn
  /// Anywhere.
  case anywhere
  /// Anywhere, on a backend that offers `feature`.
  case feature(BackendFeature)
}

/// What only some backends offer the shell.
enum BackendFeature: Hashable, Sendable {
  /// An outbox of the emails the backend sent, to read codes and links from.
  case outbox
  /// A clock the shell can move forward.
  case clock

  /// How messages name it.
  var phrase: String {
    switch self {
    case .outbox: "an outbox to read (the embedded backend has one; supabase with --mailbox)"
    case .clock: "a clock of its own (the embedded backend on --store :memory: has one)"
    }
  }
}

/// A button on a screen: where it shows, its label, and whether it submits the form.
struct Button: Equatable, Sendable {
  /// Where a button shows.
  enum Place: Hashable, Sendable {
    /// On a screen of the flow, while signed out.
    case screen(AuthScreen)
    /// On the signed-in screen.
    case signedIn
  }

  /// Where it shows.
  var place: Place
  /// Its label, as the app shows it.
  var label: String
  /// Whether it is the form's submit button, enabled only when the form can be submitted.
  var submits = false
}

/// What a command does, and so what the shell must tell after it.
enum Effect: Sendable {
  /// Shows something; the flow's state is left as it was, so there is nothing to tell.
  case shows(@MainActor @Sendable (ShellSession, Arguments) -> CommandResult)
  /// Edits the form (fields, consent); nothing the shell tells (screen, session, network,
  /// message) can change.
  case edits(@MainActor @Sendable (ShellSession, Arguments) -> CommandResult)
  /// Changes the state without waiting: a new screen, the network, the message.
  case atOnce(@MainActor @Sendable (ShellSession, Arguments) -> CommandResult)
  /// Waits for the backend (or the person at the terminal); a spinner shows while it does.
  case request(@MainActor @Sendable (ShellSession, Arguments) async -> CommandResult)
  /// A button that opens `screen` from the choice screen, and submits the form on `screen`
  /// (the app's "Sign In" and "Create Account").
  case opens(AuthScreen)

  /// The effect on `screen`: ``opens(_:)`` resolved to navigation or a submit.
  func resolved(on screen: AuthScreen) -> Effect {
    guard case .opens(let target) = self else { return self }
    if screen == .choice {
      return .change { session, _ in session.open(target) }
    }
    return .call { session, _ in await session.submit() }
  }

  /// Shows something, where nothing can go wrong in the shell itself.
  static func show(
    _ body: @escaping @MainActor @Sendable (ShellSession, Arguments) -> Void
  ) -> Effect {
    .shows { session, arguments in
      body(session, arguments)
      return .done
    }
  }

  /// Edits the form, where nothing can go wrong in the shell itself.
  static func edit(
    _ body: @escaping @MainActor @Sendable (ShellSession, Arguments) -> Void
  ) -> Effect {
    .edits { session, arguments in
      body(session, arguments)
      return .done
    }
  }

  /// At once, where nothing can go wrong in the shell itself.
  static func change(
    _ body: @escaping @MainActor @Sendable (ShellSession, Arguments) -> Void
  ) -> Effect {
    .atOnce { session, arguments in
      body(session, arguments)
      return .done
    }
  }

  /// A request whose outcome the view model shows, where nothing can go wrong in the shell.
  static func call(
    _ body: @escaping @MainActor @Sendable (ShellSession, Arguments) async -> Void
  ) -> Effect {
    .request { session, arguments in
      await body(session, arguments)
      return .done
    }
  }
}

/// How a command ended.
enum CommandResult: Equatable, Sendable {
  /// It ran.
  case done
  /// It asked the shell to end.
  case quit
  /// It could not run: a shell mistake.
  case mistake(ShellError)
  /// An expectation did not hold.
  case failedExpectation(String)
}

/// What decides whether a command can run now.
struct ShellContext: Equatable, Sendable {
  /// The screen on show.
  var screen: AuthScreen
  /// Its form fields.
  var fields: [AuthField]
  /// Whether a user is signed in.
  var signedIn: Bool
  /// What the backend offers beyond the app's service.
  var features: Set<BackendFeature>
  /// The backend's kind, for messages.
  var backend: BackendKind
}
