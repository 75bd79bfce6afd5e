import AuthFlow

/// The shell's commands, each declared once with the type of its value, in the order help and
/// the screens list them. Adding a command is adding its declaration here (and to ``all``).
enum CommandTable {
  private static let forms: [AuthScreen] = [.login, .signup, .resetRequest, .resetVerify]

  // MARK: The buttons of the screens

  static let signin = Command(
    "signin", aliases: ["login"], .screens([.choice, .login]),
    "open the sign-in form (choice), or sign in with the form (login)",
    buttons: [Button(on: .choice, .signIn)],
    flowStep: { from, _ in from == .choice ? .signIn : .submit }, effect: .opens(.login))
  static let create = Command(
    "create", aliases: ["signup", "register"], .screens([.choice, .signup]),
    "open the signup form (choice), or create the account (signup)",
    buttons: [Button(on: .choice, .createAccount)],
    flowStep: { from, _ in from == .choice ? .createAccount : .submit }, effect: .opens(.signup))
  static let submit = Command(
    "submit", .screens(forms), "press the submit button of the form",
    buttons: [Button(on: .login, .submit), Button(on: .signup, .submit)],
    flowStep: { _, _ in .submit }, effect: .request { session, _ in await session.submit() })
  static let send = Command(
    "send", .screens([.resetRequest]), "send the reset code (submit)",
    buttons: [Button(on: .resetRequest, .submit)],
    flowStep: { _, _ in .submit }, effect: .request { session, _ in await session.submit() })
  static let verify = Command(
    "verify", .screens([.resetVerify]), "set the new password with the code (submit)",
    buttons: [Button(on: .resetVerify, .submit)],
    flowStep: { _, _ in .submit }, effect: .request { session, _ in await session.submit() })
  static let forgot = Command(
    "forgot", .screens([.login]), "\"Forgot password?\": reset the password, keeping the email",
    buttons: [Button(on: .login, .forgotPassword)],
    flowStep: { _, _ in .forgotPassword },
    effect: .change { session, _ in session.viewModel.navigateToResetRequest() })
  static let resend = Command(
    "resend", .screens([.login]), "send the confirmation email again",
    buttons: [Button(on: .login, .resendConfirmation)],
    effect: .call { session, _ in await session.viewModel.resendConfirmation() })
  static let autofill = Command(
    "autofill", .screens([.login]),
    "fill in the email and password saved by this session's password manager",
    buttons: [Button(place: .screen(.login), label: "Autofill")],
    effect: .edits { session, _ in session.autofill() })
  static let suggestPassword = Command(
    "suggest-password", .screens([.signup]),
    "fill both password fields with a strong password, kept hidden",
    buttons: [Button(place: .screen(.signup), label: "Suggest strong password")],
    effect: .edits { session, _ in .printed(session.suggestPassword()) })
  static let back = Command(
    "back", .screens(forms), "back to the choice screen, clearing the form",
    buttons: forms.map { Button(on: $0, .back) },
    flowStep: { _, _ in .back },
    effect: .change { session, _ in session.viewModel.navigateToChoice() })
  static let consent = Command(
    "consent", .screens([.signup]), grammar: .choice(["on": true, "off": false]),
    "accept or withdraw the terms",
    effect: .edit { session, accepted in session.viewModel.updateConsent(accepted) })

  // MARK: The fields of the forms

  static let set = Command(
    "set", .fields, grammar: .fieldValue,
    "fill in a field; with no value, type it unseen (interactive only)",
    scriptRole: { .fill($0) }, effect: .edits { session, input in session.set(input) })
  static let clear = Command(
    "clear", .anywhere, grammar: .optionalField,
    "empty a field of the form; alone, clear the terminal's screen",
    effect: .edits { session, field in
      guard let field else { return session.clearScreen() }
      // A field is a form's: where there is none, the answer is `set`'s.
      if let refusal = Availability.fields.refusal(
        signedIn: session.viewModel.isLoggedIn, screen: session.viewModel.state.navigation.screen,
        fields: session.viewModel.state.navigation.fields, features: [], field: field)
      {
        return .mistake(
          refusal.error(command: "clear", in: session.context))
      }
      session.viewModel.setValue("", for: field)
      return .done
    })

  // MARK: Anywhere

  static let show = Command(
    "show", .anywhere, "show the screen: fields, buttons, banner and error",
    effect: .show { session, _ in session.show() })
  static let dismiss = Command(
    "dismiss", .anywhere, "hide the error or the banner",
    effect: .change { session, _ in
      session.viewModel.dismissError()
      session.viewModel.dismissBanner()
    })
  static let network = Command(
    "network", .anywhere,
    grammar: .choice([
      "online": SimulatedNetwork.online, "offline": SimulatedNetwork.offline,
      "unreachable": SimulatedNetwork.unreachable,
    ]),
    "switch the simulated network: offline (the app knows), unreachable (requests fail)",
    effect: .request { session, network in await session.simulate(network) })
  static let events = Command(
    "events", .anywhere, "list the analytics events of this session",
    effect: .show { session, _ in session.listEvents() })
  static let help = Command(
    "help", aliases: ["?"], .anywhere, grammar: .commandName,
    "list the commands, or explain one", scriptRole: { _ in .notRecorded },
    effect: .show { session, command in session.help(command) })
  static let expect = Command(
    "expect", .anywhere, grammar: Expectation.grammar,
    "check the state; a failed check makes the exit status 1", scriptRole: { .check($0) },
    effect: .shows { session, expectation in session.check(expectation) })
  static let record = Command(
    "record", .anywhere, grammar: .recording,
    "record the commands that run, with checks, as a script (record FILE; record stop)",
    scriptRole: { _ in .notRecorded },
    effect: .request { session, request in await session.record(request) })
  static let present = Command(
    "present", .anywhere, grammar: .port,
    "show the app's screen live in a browser; writes present: URL on standard error",
    scriptRole: { _ in .notRecorded },
    effect: .shows { session, port in session.present(port) })
  static let version = Command(
    "version", .anywhere, "show authflow's version and backend", scriptRole: .notRecorded,
    effect: .show { session, _ in session.showVersion() })
  static let quit = Command(
    "quit", aliases: ["exit", "q", "quit()", "exit()"], .anywhere,
    "leave the shell (also exit, \\q, Ctrl-D)",
    renewsSessionFirst: false, scriptRole: .notRecorded,
    effect: .shows { _, _ in CommandOutput(result: .quit) })

  // MARK: The signed-in screen

  static let whoami = Command(
    "whoami", .signedIn, "show the signed-in user",
    buttons: [Button(place: .signedIn, label: "Who am I")],
    effect: .show { session, _ in session.whoami() })
  static let token = Command(
    "token", .signedIn, "show the access token's claims (never its signature)",
    buttons: [Button(place: .signedIn, label: "Access token")],
    effect: .show { session, _ in session.showToken() })
  static let refresh = Command(
    "refresh", .signedIn, "exchange the refresh token for a new session",
    buttons: [Button(place: .signedIn, label: "Refresh session")],
    flowStep: { _, to in to == .choice ? .sessionEnded : nil },
    effect: .call { session, _ in await session.viewModel.refreshSession() })
  static let signout = Command(
    "signout", aliases: ["logout"], .signedIn, "sign out and return to the choice screen",
    buttons: [Button(place: .signedIn, label: "Sign out")], flowStep: { _, _ in .signOut },
    effect: .call { session, _ in await session.signOut() })
  static let reload = Command(
    "reload", .signedIn, "check again whether the email is verified (renews the tokens)",
    buttons: [Button(place: .signedIn, label: "I've verified my email")],
    flowStep: { _, to in to == .choice ? .sessionEnded : nil },
    effect: .request { session, _ in await session.reload() })
  static let sendVerification = Command(
    "send-verification", .signedIn, "send the verification email to the signed-in user again",
    buttons: [Button(place: .signedIn, label: "Resend verification")],
    effect: .call { session, _ in await session.viewModel.resendVerification() })
  static let changePassword = Command(
    "change-password", .signedIn, grammar: .secretValue(.password),
    "set a new password, staying signed in (none given: typed unseen)",
    buttons: [Button(place: .signedIn, label: "Change password")],
    flowStep: { _, _, to in to == .signedIn ? .changePassword : nil },
    scriptRole: { .newPassword($0) },
    effect: .request { session, input in await session.changePassword(input) })
  static let deleteAccount = Command(
    "delete-account", .signedIn, grammar: .optionalChoice(["confirm": true], none: false),
    "delete the account and everything kept with it (confirm: go ahead)",
    buttons: [Button(place: .signedIn, label: "Delete account")],
    flowStep: { _, _, to in to == .choice ? .deleteAccount : nil },
    effect: .request { session, confirmed in await session.deleteAccount(confirmed: confirmed) })

  // MARK: What only some backends offer

  static let mail = Command(
    "mail", .feature(.outbox),
    grammar: .optionalChoice(["code": MailAction.code, "open": MailAction.open], none: .list),
    "list the outbox; code: fill in the newest code; open: follow the newest link",
    readsOutbox: true,
    flowStep: { action, _, to in action == .open ? linkStep(leadingTo: to) : nil },
    effect: .request { session, action in await session.mail(action) })
  static let resetDemo = Command(
    "reset-demo", .feature(.demoAccounts),
    "put the demo accounts back as a new store has them, passwords and all",
    effect: .request { session, _ in await session.resetDemoAccounts() })
  static let open = Command(
    "open", .feature(.outbox), grammar: .link, "open a link from an email, as tapping it would",
    flowStep: { _, _, to in linkStep(leadingTo: to) },
    scriptRole: { .link($0) }, effect: .request { session, link in await session.open(link: link) })
  /// The step a followed link took, by where it led: a recovery link to the reset forms (the
  /// new password's, or a new link's when it could not be used), a confirmation link elsewhere.
  private static func linkStep(leadingTo node: FlowNode) -> FlowStep {
    node == .resetVerify || node == .resetRequest ? .openRecoveryLink : .openConfirmationLink
  }

  static let clock = Command(
    "clock", .feature(.clock), grammar: .duration(keyword: "advance"),
    "move the backend's clock forward (90s, 15m, 25h, 1h30m)", movesClock: true,
    effect: .request { session, duration in await session.advanceClock(by: duration.seconds) })

  /// Every command, in the order help and the screens list them.
  static let all: [CommandSpec] = [
    signin.spec, create.spec, submit.spec, send.spec, verify.spec, forgot.spec, resend.spec,
    autofill.spec, suggestPassword.spec, back.spec, consent.spec, set.spec, clear.spec, show.spec,
    dismiss.spec, network.spec, events.spec, help.spec, expect.spec, record.spec, present.spec,
    version.spec, quit.spec, whoami.spec, token.spec, refresh.spec, signout.spec, reload.spec,
    sendVerification.spec, changePassword.spec, deleteAccount.spec, mail.spec, open.spec,
    clock.spec, resetDemo.spec,
  ]

  /// The command named `name` (or one of its aliases), in any case (`SIGNIN` is `signin`).
  static func spec(named name: String) -> CommandSpec? {
    // Every line of a script looks its command up: the names that share its first byte are
    // compared, which costs less than hashing it; only a miss is lowercased and looked up again.
    guard let first = name.utf8.first, Int(first) < index.count else { return nil }
    for (candidate, position) in index[Int(first)] where candidate == name {
      return all[position]
    }
    guard name.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
    else { return nil }
    return spec(named: name.lowercased())
  }

  /// The positions in ``all`` of the names and aliases, by their first byte (all are ASCII).
  private static let index: [[(name: String, position: Int)]] = {
    var index = Array(repeating: [(name: String, position: Int)](), count: 128)
    for (position, spec) in all.enumerated() {
      for name in spec.names {
        guard let first = name.utf8.first, first < 128 else {
          preconditionFailure("command names are ASCII: \(name)")
        }
        index[Int(first)].append((name, position))
      }
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

/// What `mail` is asked to do.
enum MailAction: Equatable, Sendable {
  /// List the outbox.
  case list
  /// Fill in the newest reset code sent to the pending address.
  case code
  /// Follow the newest link sent to the address on show.
  case open
}
