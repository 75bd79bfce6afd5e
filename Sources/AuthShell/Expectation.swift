import AuthFlow

/// A check in a script (`expect …`): what it looks at in the state, and how it reads.
enum Expectation: Equatable, Sendable {
  /// `expect state <name>`.
  case state(AuthScreen)
  /// `expect consent on|off`.
  case consent(Bool)
  /// `expect pending-email <email>`.
  case pendingEmail(String)
  /// `expect error <text>`.
  case error(String)
  /// `expect no-error`.
  case noError
  /// `expect banner <text>`.
  case banner(String)
  /// `expect no-banner`.
  case noBanner
  /// `expect field <name> <value>`.
  case field(AuthField, String)
  /// `expect signed-in [email]`.
  case signedIn(String?)
  /// `expect signed-out`.
  case signedOut
  /// `expect can-submit yes|no`.
  case canSubmit(Bool)

  /// Why the check fails in `state`, or `nil` when it holds. The text names what was expected
  /// and what was found, but never a secret value.
  func failure(in state: AuthFlowState) -> String? {
    let navigation = state.navigation
    switch self {
    case .state(let screen):
      return navigation.screen == screen
        ? nil : "expected state \(screen.rawValue), got \(navigation.screen.rawValue)"
    case .consent(let on):
      guard case .signup(let consent) = navigation else {
        return "expected consent \(onOff(on)), but the screen is \(navigation.screen.rawValue),"
          + " which has no consent"
      }
      return consent == on ? nil : "expected consent \(onOff(on)), got \(onOff(consent))"
    case .pendingEmail(let email):
      guard case .resetVerify(let pending) = navigation else {
        return "expected pending-email \(email), but the screen is \(navigation.screen.rawValue)"
      }
      return pending == email ? nil : "expected pending-email \(email), got \(pending)"
    case .error(let text):
      return state.errorMessage == text
        ? nil : "expected error \(quoted(text)), got \(describe(state.errorMessage, "no error"))"
    case .noError:
      return state.errorMessage.map { "expected no error, got \(quoted($0))" }
    case .banner(let text):
      let banner = state.banner?.message
      return banner == text
        ? nil : "expected banner \(quoted(text)), got \(describe(banner, "no banner"))"
    case .noBanner:
      return state.banner.map { "expected no banner, got \(quoted($0.message))" }
    case .field(let field, let value):
      let actual = state.form[field]
      if actual == value { return nil }
      guard field.isSecret else {
        return "expected field \(field.commandName) \(quoted(value)), got \(quoted(actual))"
      }
      return "expected the \(field.commandName) field to hold the given value; it does not"
        + (actual.isEmpty ? " (it is empty)" : "")
    case .signedIn(let email):
      switch (state.session?.user.email, email) {
      case (nil, _): return "expected signed in, got signed out"
      case (let actual?, let expected?) where actual != expected:
        return "expected signed in as \(expected), got signed in as \(actual)"
      default: return nil
      }
    case .signedOut:
      return state.session.map { "expected signed out, got signed in as \($0.user.email)" }
    case .canSubmit(let yes):
      if state.canSubmit == yes { return nil }
      let reason = state.submitBlocker.map { " (\(Renderer.reason($0)))" } ?? ""
      return "expected can-submit \(yesNo(yes)), got \(yesNo(!yes))\(reason)"
    }
  }

  /// The words after `expect`, as they may be shown or stored: a secret field's value masked.
  var displayWords: [String] {
    switch self {
    case .state(let screen): ["state", screen.rawValue]
    case .consent(let on): ["consent", onOff(on)]
    case .pendingEmail(let email): ["pending-email", email]
    case .error(let text): ["error", text]
    case .noError: ["no-error"]
    case .banner(let text): ["banner", text]
    case .noBanner: ["no-banner"]
    case .field(let field, let value):
      ["field", field.commandName, field.isSecret && !value.isEmpty ? Redaction.mask : value]
    case .signedIn(let email): ["signed-in"] + (email.map { [$0] } ?? [])
    case .signedOut: ["signed-out"]
    case .canSubmit(let yes): ["can-submit", yesNo(yes)]
    }
  }
}

extension Expectation {
  /// What follows `expect`: a kind, and what it checks. Usage, completion, help and errors of
  /// every kind come from here.
  static let grammar = Grammar<Expectation>.keyed(
    kinds, command: "expect", display: \.displayWords)

  /// The kinds' names, in the order help lists them.
  static let kindNames = kinds.map(\.keyword)

  /// Every kind with the grammar of what follows it.
  private static let kinds: [(keyword: String, grammar: Grammar<Expectation>)] = [
    (
      "state",
      words(
        usage: "<\(AuthScreen.allCases.map(\.rawValue).joined(separator: "|"))>",
        expected: "a screen name", completions: AuthScreen.allCases.map(\.rawValue)
      ) { words in
        guard words.count == 1, let screen = words.first.flatMap(AuthScreen.init) else {
          return nil
        }
        return .state(screen)
      }
    ),
    (
      "consent",
      words(usage: "on|off", expected: "on or off", completions: ["on", "off"]) { words in
        words.count == 1 && (words.first == "on" || words.first == "off")
          ? .consent(words.first == "on") : nil
      }
    ),
    (
      "pending-email",
      words(usage: "<email>", expected: "an email") { words in
        words.count == 1 ? words.first.map(Expectation.pendingEmail) : nil
      }
    ),
    (
      "error",
      words(usage: "<text>", expected: "the error's text") { words in
        words.isEmpty ? nil : .error(words.joined(separator: " "))
      }
    ),
    ("no-error", words(usage: "", expected: "nothing") { $0.isEmpty ? .noError : nil }),
    (
      "banner",
      words(usage: "<text>", expected: "the banner's text") { words in
        words.isEmpty ? nil : .banner(words.joined(separator: " "))
      }
    ),
    ("no-banner", words(usage: "", expected: "nothing") { $0.isEmpty ? .noBanner : nil }),
    (
      "field",
      words(
        usage: "<\(AuthField.allCases.map(\.commandName).joined(separator: "|"))> <value>",
        expected: "a field and a value", completions: AuthField.allCases.map(\.commandName)
      ) { words in
        guard let name = words.first, let field = AuthField(commandName: name) else { return nil }
        return .field(field, words.dropFirst().joined(separator: " "))
      }
    ),
    (
      "signed-in",
      words(usage: "[email]", expected: "an email or nothing") { words in
        words.count <= 1 ? .signedIn(words.first) : nil
      }
    ),
    ("signed-out", words(usage: "", expected: "nothing") { $0.isEmpty ? .signedOut : nil }),
    (
      "can-submit",
      words(usage: "yes|no", expected: "yes or no", completions: ["yes", "no"]) { words in
        words.count == 1 && (words.first == "yes" || words.first == "no")
          ? .canSubmit(words.first == "yes") : nil
      }
    ),
  ]

  /// The grammar of what follows one kind: `read` makes the check of its words.
  private static func words(
    usage: String, expected: String, completions: [String] = [],
    read: @escaping @Sendable (ArraySlice<String>) -> Expectation?
  ) -> Grammar<Expectation> {
    Grammar(
      usage: usage, expected: expected, read: { read($0) },
      completions: { typed, _ in typed.isEmpty ? completions : [] },
      display: { Array($0.displayWords.dropFirst()) })
  }
}

private func onOff(_ value: Bool) -> String { value ? "on" : "off" }

private func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

private func quoted(_ text: String) -> String { "\"\(text)\"" }

private func describe(_ text: String?, _ none: String) -> String { text.map(quoted) ?? none }
