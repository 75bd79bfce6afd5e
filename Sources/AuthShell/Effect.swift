import AuthFlow

/// What a command does with its value, and so what the shell must tell after it. Every handler
/// returns its output as a value.
enum Effect<Value: Sendable>: Sendable {
  /// Shows something; the flow's state is left as it was, so there is nothing to tell.
  case shows(@MainActor @Sendable (ShellSession, Value) -> CommandOutput)
  /// Edits the form (fields, consent); nothing the shell tells (screen, session, network,
  /// message) can change.
  case edits(@MainActor @Sendable (ShellSession, Value) -> CommandOutput)
  /// Changes the state without waiting: a new screen, the network, the message.
  case atOnce(@MainActor @Sendable (ShellSession, Value) -> CommandOutput)
  /// Waits for the backend (or the person at the terminal); a spinner shows while it does.
  case request(@MainActor @Sendable (ShellSession, Value) async -> CommandOutput)
  /// A button that opens `screen` from the choice screen, and submits the form on `screen`
  /// (the app's "Sign In" and "Create Account").
  case opens(AuthScreen)

  /// Shows the lines `body` makes, where nothing can go wrong in the shell itself.
  static func show(_ body: @escaping @MainActor @Sendable (ShellSession, Value) -> [String])
    -> Effect
  {
    .shows { session, value in .printed(body(session, value)) }
  }

  /// Edits the form, printing nothing, where nothing can go wrong in the shell itself.
  static func edit(_ body: @escaping @MainActor @Sendable (ShellSession, Value) -> Void) -> Effect {
    .edits { session, value in
      body(session, value)
      return .done
    }
  }

  /// At once, printing nothing but what changed, where nothing can go wrong in the shell.
  static func change(_ body: @escaping @MainActor @Sendable (ShellSession, Value) -> Void)
    -> Effect
  {
    .atOnce { session, value in
      body(session, value)
      return .done
    }
  }

  /// A request whose outcome the view model shows; the shell notes what it came to.
  static func call(
    _ body: @escaping @MainActor @Sendable (ShellSession, Value) async -> AuthOutcome
  ) -> Effect {
    .request { session, value in .told(await body(session, value)) }
  }
}

/// A command's effect with its value's type erased, as the table keeps it: each handler takes
/// the parsed input and gets its value back as the type its own grammar made.
enum ErasedEffect: Sendable {
  case shows(@MainActor @Sendable (ShellSession, ParsedInput) -> CommandOutput)
  case edits(@MainActor @Sendable (ShellSession, ParsedInput) -> CommandOutput)
  case atOnce(@MainActor @Sendable (ShellSession, ParsedInput) -> CommandOutput)
  case request(@MainActor @Sendable (ShellSession, ParsedInput) async -> CommandOutput)
  case opens(AuthScreen)

  init<Value: Sendable>(_ effect: Effect<Value>) {
    // The one place a value's type is recovered: the same declaration made the grammar that
    // parsed it, so the cast holds.
    func typed(_ input: ParsedInput) -> Value {
      guard let value = input.value(as: Value.self) else {
        preconditionFailure("a command got another command's value")
      }
      return value
    }
    switch effect {
    case .shows(let body): self = .shows { session, input in body(session, typed(input)) }
    case .edits(let body): self = .edits { session, input in body(session, typed(input)) }
    case .atOnce(let body): self = .atOnce { session, input in body(session, typed(input)) }
    case .request(let body):
      self = .request { session, input in await body(session, typed(input)) }
    case .opens(let screen): self = .opens(screen)
    }
  }

  /// The effect on `screen`: ``opens(_:)`` resolved to navigation or a submit.
  func resolved(on screen: AuthScreen) -> ResolvedEffect {
    switch self {
    case .shows(let body): .shows(body)
    case .edits(let body): .edits(body)
    case .atOnce(let body): .atOnce(body)
    case .request(let body): .request(body)
    case .opens(let target) where screen == .choice:
      .atOnce { session, _ in
        session.open(target)
        return .done
      }
    case .opens: .request { session, _ in await session.submit() }
    }
  }
}

/// A command's effect on the screen on show: a button that opens or submits is one or the
/// other by now, so nothing here can still open.
enum ResolvedEffect: Sendable {
  case shows(@MainActor @Sendable (ShellSession, ParsedInput) -> CommandOutput)
  case edits(@MainActor @Sendable (ShellSession, ParsedInput) -> CommandOutput)
  case atOnce(@MainActor @Sendable (ShellSession, ParsedInput) -> CommandOutput)
  case request(@MainActor @Sendable (ShellSession, ParsedInput) async -> CommandOutput)
}
