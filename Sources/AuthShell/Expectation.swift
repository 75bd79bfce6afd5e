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

/// One kind of `expect`: its name, its synopsis, what Tab offers and how its words parse.
struct ExpectationSpec: Sendable {
  /// The kind, e.g. `state`.
  let name: String
  /// What follows the kind, e.g. `<email>`; empty when nothing does.
  let usage: String
  /// What Tab offers after the kind.
  let completions: [String]
  /// What the words after the kind say, in words, for errors.
  let expected: String
  let parse: @Sendable (ArraySlice<String>) -> Expectation?

  /// Every kind, in the order help lists them.
  static let all: [ExpectationSpec] = [
    ExpectationSpec(
      name: "state", usage: "<\(AuthScreen.allCases.map(\.rawValue).joined(separator: "|"))>",
      completions: AuthScreen.allCases.map(\.rawValue), expected: "a screen name"
    ) { words in
      guard words.count == 1, let screen = words.first.flatMap(AuthScreen.init) else { return nil }
      return .state(screen)
    },
    ExpectationSpec(
      name: "consent", usage: "on|off", completions: ["on", "off"], expected: "on or off"
    ) { words in
      words.count == 1 && (words.first == "on" || words.first == "off")
        ? .consent(words.first == "on") : nil
    },
    ExpectationSpec(name: "pending-email", usage: "<email>", completions: [], expected: "an email")
    {
      words in words.count == 1 ? words.first.map(Expectation.pendingEmail) : nil
    },
    ExpectationSpec(name: "error", usage: "<text>", completions: [], expected: "the error's text") {
      words in words.isEmpty ? nil : .error(words.joined(separator: " "))
    },
    ExpectationSpec(name: "no-error", usage: "", completions: [], expected: "nothing") {
      $0.isEmpty ? .noError : nil
    },
    ExpectationSpec(name: "banner", usage: "<text>", completions: [], expected: "the banner's text")
    {
      words in words.isEmpty ? nil : .banner(words.joined(separator: " "))
    },
    ExpectationSpec(name: "no-banner", usage: "", completions: [], expected: "nothing") {
      $0.isEmpty ? .noBanner : nil
    },
    ExpectationSpec(
      name: "field",
      usage: "<\(AuthField.allCases.map(\.commandName).joined(separator: "|"))> <value>",
      completions: AuthField.allCases.map(\.commandName), expected: "a field and a value"
    ) { words in
      guard let name = words.first, let field = AuthField(commandName: name) else { return nil }
      return .field(field, words.dropFirst().joined(separator: " "))
    },
    ExpectationSpec(
      name: "signed-in", usage: "[email]", completions: [], expected: "an email or nothing"
    ) {
      words in words.count <= 1 ? .signedIn(words.first) : nil
    },
    ExpectationSpec(name: "signed-out", usage: "", completions: [], expected: "nothing") {
      $0.isEmpty ? .signedOut : nil
    },
    ExpectationSpec(
      name: "can-submit", usage: "yes|no", completions: ["yes", "no"], expected: "yes or no"
    ) {
      words in
      words.count == 1 && (words.first == "yes" || words.first == "no")
        ? .canSubmit(words.first == "yes") : nil
    },
  ]

  /// The names of every kind.
  static let names = all.map(\.name)

  /// `expect state <…>`.
  var synopsis: String { ["expect", name, usage].filter { !$0.isEmpty }.joined(separator: " ") }

  /// Parses the words after `expect`.
  static func parse(_ words: ArraySlice<String>) throws(ShellError) -> Expectation {
    guard let kind = words.first else { throw .unknownExpectation(given: false, kinds: names) }
    guard let spec = all.first(where: { $0.name == kind }) else {
      throw .unknownExpectation(given: true, kinds: names)
    }
    guard let expectation = spec.parse(words.dropFirst()) else {
      throw .wrongArguments(
        command: "expect \(kind)", expected: spec.expected, usage: spec.synopsis)
    }
    return expectation
  }

  /// What Tab offers after `expect` and `typed`.
  static func completions(after typed: [String]) -> [String] {
    switch typed.count {
    case 0: names
    case 1: all.first { $0.name == typed[0] }?.completions ?? []
    default: []
    }
  }
}

private func onOff(_ value: Bool) -> String { value ? "on" : "off" }

private func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

private func quoted(_ text: String) -> String { "\"\(text)\"" }

private func describe(_ text: String?, _ none: String) -> String { text.map(quoted) ?? none }
