import AuthFlow

/// One command of the shell, declared once with its value's type (``Command``) and kept here
/// with that type erased: its names, where it applies, its grammar, its help, how it shows as a
/// button, what it does, and the facts the rest of the shell reads about it (whether a
/// recording writes it, which step of the flow it takes, whether the session is renewed first).
/// Dispatch, help, completion, the wrong-screen hint, redaction, coverage, recording and the
/// screen's buttons all read this declaration.
final class CommandSpec: Sendable, Equatable {
  /// The name typed.
  let name: String
  /// Other names that do the same.
  let aliases: [String]
  /// Where it can be used.
  let availability: Availability
  /// What it does, in one line.
  let summary: String
  /// Where it shows as a button, and with which label.
  let buttons: [Button]
  /// The synopsis after the name, e.g. `on|off`.
  let grammarUsage: String
  /// More lines `help` shows about it.
  let details: [String]
  /// Whether a signed-in session due for renewal is renewed before it runs (not before `quit`:
  /// leaving needs no fresh token).
  let renewsSessionFirst: Bool
  /// Whether it moves the backend's clock itself (then a recording writes no `clock advance`
  /// for the time that passed before it).
  let movesClock: Bool
  /// Whether it reads codes from the outbox (a code found there went to an account).
  let readsOutbox: Bool

  /// Parses the words after the name into the command's value.
  let parse: @Sendable (ArraySlice<String>) throws(ShellError) -> ParsedInput
  /// What Tab offers for the next word.
  let completions: @Sendable ([String], ShellContext) -> [String]
  /// Words after the name that did not parse, as they may be shown.
  let unparsedWords: @Sendable (ArraySlice<String>) -> [String]
  /// What it does, with its value.
  let effect: ErasedEffect

  fileprivate init<Value: Sendable & Equatable>(
    declaration: CommandDeclaration<Value>, grammar: Grammar<Value>, effect: Effect<Value>,
    reader: ValueReader<Value>
  ) {
    name = declaration.name
    aliases = declaration.aliases
    availability = declaration.availability
    summary = declaration.summary
    buttons = declaration.buttons
    grammarUsage = grammar.usage
    details = grammar.details
    renewsSessionFirst = declaration.renewsSessionFirst
    movesClock = declaration.movesClock
    readsOutbox = declaration.readsOutbox
    let name = declaration.name
    if let none = NoArguments() as? Value {
      // A command that takes no words has one value, made once rather than on every line.
      let input = reader.input(none)
      parse = { words throws(ShellError) in
        _ = try grammar.parse(words, command: name)
        return input
      }
    } else {
      parse = { words throws(ShellError) in
        reader.input(try grammar.parse(words, command: name))
      }
    }
    completions = grammar.completions
    unparsedWords = grammar.unparsed
    self.effect = ErasedEffect(effect)
  }

  static func == (lhs: CommandSpec, rhs: CommandSpec) -> Bool { lhs.name == rhs.name }

  /// Every name the command answers to.
  var names: [String] { [name] + aliases }

  /// The synopsis, e.g. `consent on|off`.
  var usage: String { grammarUsage.isEmpty ? name : "\(name) \(grammarUsage)" }

  /// Whether the command can be used in `context` at all.
  func isAvailable(in context: ShellContext) -> Bool {
    availability.refusal(
      signedIn: context.signedIn, screen: context.screen, fields: context.fields,
      features: context.features, field: nil) == nil
  }
}

/// The facts of a command's declaration besides its grammar and effect.
struct CommandDeclaration<Value: Sendable>: Sendable {
  var name: String
  var aliases: [String] = []
  var availability: Availability
  var summary: String
  var buttons: [Button] = []
  var renewsSessionFirst = true
  var movesClock = false
  var readsOutbox = false
  /// The step of the flow's map the command took, from its value and where it led.
  var flowStep: @Sendable (Value, FlowNode, FlowNode) -> FlowStep? = { _, _, _ in nil }
  /// How a recording writes the command, from its value.
  var scriptRole: @Sendable (Value) -> ScriptRole = { _ in .asTyped }
}

/// A command declared with the type of the value its grammar makes: the handler gets that value,
/// and code that writes the command (a recording's preamble) builds it from a value, so renaming
/// the command or changing its grammar breaks the build, not a replay.
struct Command<Value: Sendable & Equatable>: Sendable {
  /// The declaration as the table keeps it.
  let spec: CommandSpec
  private let reader: ValueReader<Value>

  /// A command of `grammar` whose value `effect` acts on.
  init(
    _ name: String, aliases: [String] = [], _ availability: Availability,
    grammar: Grammar<Value>, _ summary: String, buttons: [Button] = [],
    renewsSessionFirst: Bool = true, movesClock: Bool = false, readsOutbox: Bool = false,
    flowStep: @escaping @Sendable (Value, FlowNode, FlowNode) -> FlowStep? = { _, _, _ in nil },
    scriptRole: @escaping @Sendable (Value) -> ScriptRole = { _ in .asTyped },
    effect: Effect<Value>
  ) {
    let declaration = CommandDeclaration(
      name: name, aliases: aliases, availability: availability, summary: summary,
      buttons: buttons, renewsSessionFirst: renewsSessionFirst, movesClock: movesClock,
      readsOutbox: readsOutbox, flowStep: flowStep, scriptRole: scriptRole)
    reader = ValueReader(grammar: grammar, declaration: declaration)
    spec = CommandSpec(declaration: declaration, grammar: grammar, effect: effect, reader: reader)
  }

  /// The command with `value`, as if typed.
  func invocation(_ value: Value) -> Invocation {
    Invocation(spec: spec, typedName: spec.name, input: reader.input(value))
  }
}

extension Command where Value == NoArguments {
  /// A command that takes nothing.
  init(
    _ name: String, aliases: [String] = [], _ availability: Availability, _ summary: String,
    buttons: [Button] = [], renewsSessionFirst: Bool = true,
    flowStep: @escaping @Sendable (FlowNode, FlowNode) -> FlowStep? = { _, _ in nil },
    scriptRole: ScriptRole = .asTyped, effect: Effect<NoArguments>
  ) {
    self.init(
      name, aliases: aliases, availability, grammar: .none, summary, buttons: buttons,
      renewsSessionFirst: renewsSessionFirst, flowStep: { _, from, to in flowStep(from, to) },
      scriptRole: { _ in scriptRole }, effect: effect)
  }

  /// The command, as if typed.
  func invocation() -> Invocation { invocation(NoArguments()) }
}

/// A command's value, its type erased once, at the table: what its handler gets back, the
/// words it may be shown as, the field it names, and what the recording and coverage learn of
/// it. What is derived from the value is worked out when asked for, by the value's own box, so
/// parsing a command costs no more than its value and reading it back costs no cast.
struct ParsedInput: Sendable, Equatable {
  private let box: InputBox

  fileprivate init(_ box: InputBox) { self.box = box }

  /// The words as they may be shown or stored: secrets masked.
  var displayWords: [String] { box.displayWords }
  /// The field the value names, if any.
  var field: AuthField? { box.field }
  /// How a recording writes the command.
  var role: ScriptRole { box.role }

  /// The step of the flow the command took, from where it began to where it led.
  func flowStep(_ from: FlowNode, _ to: FlowNode) -> FlowStep? { box.flowStep(from, to) }

  /// The value, as the command's own type.
  func value<Value: Sendable>(as type: Value.Type) -> Value? {
    (box as? TypedInput<Value>)?.value
  }

  static func == (lhs: ParsedInput, rhs: ParsedInput) -> Bool { lhs.box.isEqual(to: rhs.box) }
}

/// A value of some command, as ``ParsedInput`` keeps it: each member is the typed one's.
private class InputBox: @unchecked Sendable {
  // NB: @unchecked: abstract; the one subclass holds only Sendable values.
  var displayWords: [String] { fatalError("abstract") }
  var field: AuthField? { fatalError("abstract") }
  var role: ScriptRole { fatalError("abstract") }
  func flowStep(_ from: FlowNode, _ to: FlowNode) -> FlowStep? { fatalError("abstract") }
  func isEqual(to other: InputBox) -> Bool { fatalError("abstract") }
}

/// A value of the command whose grammar and declaration `reader` holds.
private final class TypedInput<Value: Sendable>: InputBox, @unchecked Sendable {
  // NB: @unchecked: immutable, and both stored properties are Sendable.
  let value: Value
  let reader: ValueReader<Value>

  init(_ value: Value, reader: ValueReader<Value>) {
    self.value = value
    self.reader = reader
  }

  override var displayWords: [String] { reader.grammar.display(value) }
  override var field: AuthField? { reader.grammar.field(value) }
  override var role: ScriptRole { reader.declaration.scriptRole(value) }
  override func flowStep(_ from: FlowNode, _ to: FlowNode) -> FlowStep? {
    reader.declaration.flowStep(value, from, to)
  }
  override func isEqual(to other: InputBox) -> Bool {
    guard let other = other as? TypedInput<Value>, other.reader === reader else { return false }
    return reader.isEqual(value, other.value)
  }
}

/// What reads back the values of one command: its grammar and declaration, kept once.
final class ValueReader<Value: Sendable>: Sendable {
  fileprivate let grammar: Grammar<Value>
  fileprivate let declaration: CommandDeclaration<Value>
  fileprivate let isEqual: @Sendable (Value, Value) -> Bool

  init(grammar: Grammar<Value>, declaration: CommandDeclaration<Value>)
  where Value: Equatable {
    self.grammar = grammar
    self.declaration = declaration
    isEqual = { $0 == $1 }
  }

  /// `value` as a parsed input of this command.
  func input(_ value: Value) -> ParsedInput { ParsedInput(TypedInput(value, reader: self)) }
}

/// How a recording writes a command that ran.
enum ScriptRole: Equatable, Sendable {
  /// Not at all: it is about the shell, not the flow (its output changes with authflow's
  /// version, and a replay gains nothing from it).
  case notRecorded
  /// As a check (`expect`), unless the checks written after the last command say the same.
  case check(Expectation)
  /// A field filled: a secret one through the environment, or `mail code` for the code sent.
  case fill(FieldInput)
  /// A new password given to `change-password`: a literal one, or one typed unseen, through
  /// the environment, as `set` writes a secret field.
  case newPassword(FieldInput)
  /// A link opened: `mail open` when it is the newest one sent, else left out (it holds a
  /// one-time code).
  case link(String)
  /// As it was typed, secrets masked.
  case asTyped
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

  /// Why a command of this availability cannot run, or `nil` when it can: the one check, cheap
  /// enough for every command of a script. `field` is the field the command names, if any.
  func refusal(
    signedIn: Bool, screen: AuthScreen, fields: @autoclosure () -> [AuthField],
    features: Set<BackendFeature>, field: @autoclosure () -> AuthField?
  ) -> Refusal? {
    switch self {
    case .anywhere:
      return nil
    case .feature(let feature):
      return features.contains(feature) ? nil : .lacks(feature)
    case .signedIn:
      return signedIn ? nil : .needsSignIn
    case .screens(let screens):
      if signedIn { return .hiddenWhileSignedIn }
      return screens.contains(screen) ? nil : .wrongScreen(screens)
    case .fields:
      if signedIn { return .formHidden }
      guard let field = field(), !fields().contains(field) else { return nil }
      return .noSuchField(field)
    }
  }

  /// Why a command cannot run.
  enum Refusal: Equatable, Sendable {
    case lacks(BackendFeature)
    case needsSignIn
    case hiddenWhileSignedIn
    case wrongScreen([AuthScreen])
    case formHidden
    case noSuchField(AuthField)

    /// The shell's error for `command`, naming what can be used in `context` instead.
    func error(command: String, in context: ShellContext) -> ShellError {
      switch self {
      case .lacks(let feature):
        .notOnThisBackend(command: command, feature: feature, backend: context.backend)
      case .needsSignIn: .needsSignIn(command: command)
      case .hiddenWhileSignedIn:
        .hiddenWhileSignedIn(command: command, available: CommandTable.names(in: context))
      case .wrongScreen(let screens):
        .wrongScreen(
          command: command, screens: screens, here: context.screen,
          buttons: CommandTable.buttonNames(on: context.screen))
      case .formHidden: .formHidden
      case .noSuchField(let field):
        .noSuchField(field, screen: context.screen, fields: context.fields)
      }
    }
  }
}

/// What a command printed, and how it ended: a command returns its output as a value, and the
/// runner decides whether it goes to the terminal or into a JSON object.
struct CommandOutput: Equatable, Sendable {
  /// The lines it printed, in order.
  var lines: [String] = []
  /// How it ended.
  var result: CommandResult = .done

  /// It ran and printed nothing.
  static let done = CommandOutput()

  /// It ran and printed `lines`.
  static func printed(_ lines: [String]) -> CommandOutput { CommandOutput(lines: lines) }

  /// It could not run.
  static func mistake(_ error: ShellError) -> CommandOutput {
    CommandOutput(result: .mistake(error))
  }

  /// What a request of the flow came to, for the shell: it ran, unless the device's store of
  /// the session failed (then the run has not done what it says, and a script fails).
  static func told(_ outcome: AuthOutcome) -> CommandOutput {
    var output = CommandOutput.done
    output.note(outcome)
    return output
  }

  /// Notes `outcome` after these lines: a failure of the device's store makes the command a
  /// mistake.
  mutating func note(_ outcome: AuthOutcome) {
    if let problem = outcome.localStoreProblem { result = .mistake(.storeFailed(problem)) }
  }

  /// Adds `more` lines after these (without copying when there were none).
  mutating func append(_ more: [String]) {
    if lines.isEmpty { lines = more } else if !more.isEmpty { lines += more }
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
