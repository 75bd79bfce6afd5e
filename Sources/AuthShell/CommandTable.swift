import AuthFlow

/// The shell's commands, in the order help and the screens list them. Adding a command is
/// adding an entry here and the handler it names.
enum CommandTable {
  private static let forms: [AuthScreen] = [.login, .signup, .resetRequest, .resetVerify]

  /// Every command.
  static let all: [CommandSpec] = [
    // The buttons of the screens.
    CommandSpec(
      "signin", .screens([.choice, .login]),
      "open the sign-in form (choice), or sign in with the form (login)",
      buttons: [Button(place: .screen(.choice), label: "Sign In")], effect: .opens(.login)),
    CommandSpec(
      "create", .screens([.choice, .signup]),
      "open the signup form (choice), or create the account (signup)",
      buttons: [Button(place: .screen(.choice), label: "Create Account")], effect: .opens(.signup)),
    CommandSpec(
      "submit", .screens(forms), "press the submit button of the form",
      buttons: [
        Button(place: .screen(.login), label: "Sign In", submits: true),
        Button(place: .screen(.signup), label: "Create Account", submits: true),
      ], effect: .call { session, _ in await session.submit() }),
    CommandSpec(
      "send", .screens([.resetRequest]), "send the reset code (submit)",
      buttons: [Button(place: .screen(.resetRequest), label: "Send code", submits: true)],
      effect: .call { session, _ in await session.submit() }),
    CommandSpec(
      "verify", .screens([.resetVerify]), "set the new password with the code (submit)",
      buttons: [Button(place: .screen(.resetVerify), label: "Reset password", submits: true)],
      effect: .call { session, _ in await session.submit() }),
    CommandSpec(
      "forgot", .screens([.login]), "\"Forgot password?\": reset the password, keeping the email",
      buttons: [Button(place: .screen(.login), label: "Forgot password?")],
      effect: .change { session, _ in session.viewModel.navigateToResetRequest() }),
    CommandSpec(
      "resend", .screens([.login]), "send the confirmation email again",
      buttons: [Button(place: .screen(.login), label: "Resend confirmation")],
      effect: .call { session, _ in await session.viewModel.resendConfirmation() }),
    CommandSpec(
      "autofill", .screens([.login]),
      "fill in the email and password saved by this session's password manager",
      buttons: [Button(place: .screen(.login), label: "Autofill")],
      effect: .edits { session, _ in session.autofill() }),
    CommandSpec(
      "suggest-password", .screens([.signup]),
      "fill both password fields with a strong password, kept hidden",
      buttons: [Button(place: .screen(.signup), label: "Suggest strong password")],
      effect: .edit { session, _ in session.suggestPassword() }),
    CommandSpec(
      "back", .screens(forms), "back to the choice screen, clearing the form",
      buttons: forms.map { Button(place: .screen($0), label: "Back") },
      effect: .change { session, _ in session.viewModel.navigateToChoice() }),
    CommandSpec(
      "consent", .screens([.signup]), grammar: .word(["on", "off"]),
      "accept or withdraw the terms",
      effect: .edit { session, arguments in
        session.viewModel.updateConsent(arguments == .word("on"))
      }),

    // The fields of the forms.
    CommandSpec(
      "set", .fields, grammar: .fieldValue,
      "fill in a field; with no value, type it unseen (interactive only)",
      effect: .edits { session, arguments in session.set(arguments) }),
    CommandSpec(
      "clear", .fields, grammar: .field, "empty a field",
      effect: .edit { session, arguments in
        if case .field(let field) = arguments { session.viewModel.setValue("", for: field) }
      }),

    // Anywhere.
    CommandSpec(
      "show", .anywhere, "show the screen: fields, buttons, banner and error",
      effect: .show { session, _ in session.show() }),
    CommandSpec(
      "dismiss", .anywhere, "hide the error or the banner",
      effect: .change { session, _ in
        session.viewModel.dismissError()
        session.viewModel.dismissBanner()
      }),
    CommandSpec(
      "network", .anywhere, grammar: .word(["online", "offline"]),
      "switch the simulated network",
      effect: .change { session, arguments in
        session.viewModel.updateNetworkStatus(arguments == .word("offline") ? .offline : .online)
      }),
    CommandSpec(
      "events", .anywhere, "list the analytics events of this session",
      effect: .show { session, _ in session.listEvents() }),
    CommandSpec(
      "help", aliases: ["?"], .anywhere, grammar: .commandName,
      "list the commands, or explain one",
      effect: .show { session, arguments in session.help(arguments) }),
    CommandSpec(
      "expect", .anywhere, grammar: .expectation,
      "check the state; a failed check makes the exit status 1",
      effect: .shows { session, arguments in session.check(arguments) }),
    CommandSpec(
      "record", .anywhere, grammar: .recording,
      "record the commands that run, with checks, as a script (record FILE; record stop)",
      effect: .request { session, arguments in await session.record(arguments) }),
    CommandSpec(
      "version", .anywhere, "show authflow's version and backend",
      effect: .show { session, _ in session.showVersion() }),
    CommandSpec(
      "quit", aliases: ["exit"], .anywhere, "leave the shell (also exit, Ctrl-D)",
      effect: .shows { _, _ in .quit }),

    // The signed-in screen.
    CommandSpec(
      "whoami", .signedIn, "show the signed-in user",
      buttons: [Button(place: .signedIn, label: "Who am I")],
      effect: .show { session, _ in session.whoami() }),
    CommandSpec(
      "token", .signedIn, "show the access token's claims (never its signature)",
      buttons: [Button(place: .signedIn, label: "Access token")],
      effect: .show { session, _ in session.showToken() }),
    CommandSpec(
      "refresh", .signedIn, "exchange the refresh token for a new session",
      buttons: [Button(place: .signedIn, label: "Refresh session")],
      effect: .call { session, _ in await session.viewModel.refreshSession() }),
    CommandSpec(
      "signout", .signedIn, "sign out and return to the choice screen",
      buttons: [Button(place: .signedIn, label: "Sign out")],
      effect: .call { session, _ in await session.signOut() }),
    CommandSpec(
      "reload", .signedIn, "check again whether the email is verified (renews the tokens)",
      buttons: [Button(place: .signedIn, label: "I've verified my email")],
      effect: .call { session, _ in await session.reload() }),
    CommandSpec(
      "send-verification", .signedIn, "send the verification email to the signed-in user again",
      buttons: [Button(place: .signedIn, label: "Resend verification")],
      effect: .call { session, _ in await session.viewModel.resendVerification() }),
    CommandSpec(
      "delete-account", .signedIn, grammar: .optionalWord(["confirm"]),
      "delete the account and everything kept with it (confirm: go ahead)",
      buttons: [Button(place: .signedIn, label: "Delete account")],
      effect: .call { session, arguments in await session.deleteAccount(arguments) }),

    // What only some backends offer.
    CommandSpec(
      "mail", .feature(.outbox), grammar: .optionalWord(["code", "open"]),
      "list the outbox; code: fill in the newest code; open: follow the newest link",
      effect: .request { session, arguments in await session.mail(arguments) }),
    CommandSpec(
      "open", .feature(.outbox), grammar: .link,
      "open a link from an email, as tapping it would",
      effect: .request { session, arguments in await session.open(arguments) }),
    CommandSpec(
      "clock", .feature(.clock), grammar: .duration(keyword: "advance"),
      "move the backend's clock forward (90s, 15m, 25h, 1h30m)",
      effect: .show { session, arguments in session.advanceClock(arguments) }),
  ]

  /// The command named `name` (or one of its aliases).
  static func spec(named name: String) -> CommandSpec? {
    index[name].map { all[$0] }
  }

  private static let index: [String: Int] = {
    var index: [String: Int] = [:]
    for (position, spec) in all.enumerated() {
      for name in spec.names { index[name] = position }
    }
    return index
  }()

  /// Every command name usable in `context`.
  static func names(in context: ShellContext) -> [String] {
    all.filter { $0.isAvailable(in: context) }.map(\.name)
  }

  /// The commands that are buttons of `screen`, in table order.
  static func buttonNames(on screen: AuthScreen) -> [String] {
    all.filter { spec in
      if case .screens(let screens) = spec.availability { screens.contains(screen) } else { false }
    }.map(\.name)
  }

  /// The buttons shown at `place`, with the command that presses each, in table order.
  static func buttons(at place: Button.Place) -> [(button: Button, command: String)] {
    buttonsByPlace[place] ?? []
  }

  private static let buttonsByPlace: [Button.Place: [(button: Button, command: String)]] = {
    var places: [Button.Place: [(button: Button, command: String)]] = [:]
    for spec in all {
      for button in spec.buttons { places[button.place, default: []].append((button, spec.name)) }
    }
    return places
  }()

  /// The closest command name to a mistyped `name`, if one is close enough.
  static func suggestion(for name: String) -> String? {
    guard name.count <= 32 else { return nil }
    let typed = Array(name.lowercased().utf8)
    var best: (name: String, distance: Int)?
    for spec in all {
      for candidate in spec.names {
        let distance = editDistance(typed, Array(candidate.utf8))
        if distance <= 2, distance < (best?.distance ?? .max) { best = (spec.name, distance) }
      }
    }
    return best?.name
  }

  /// The Levenshtein distance between two byte strings.
  static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
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
