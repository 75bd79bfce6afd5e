import AuthFlow
import AuthFlowGoTrue
import Clocks
import PrivateFiles
import Testing

@testable import AuthShell

/// Words to commands, and where each command may be used.
struct CommandParserTests {
  @Test(arguments: [
    (["signin"], CommandTable.signin.invocation()),
    (["create"], CommandTable.create.invocation()),
    (["submit"], CommandTable.submit.invocation()),
    (["send"], CommandTable.send.invocation()),
    (["verify"], CommandTable.verify.invocation()),
    (["forgot"], CommandTable.forgot.invocation()),
    (["resend"], CommandTable.resend.invocation()),
    (["back"], CommandTable.back.invocation()),
    (["consent", "on"], CommandTable.consent.invocation(true)),
    (["consent", "off"], CommandTable.consent.invocation(false)),
    (["suggest-password"], CommandTable.suggestPassword.invocation()),
    (["autofill"], CommandTable.autofill.invocation()),
    (["set", "email", "a@b.co"], CommandTable.set.invocation(.value(.email, "a@b.co"))),
    (
      ["set", "password", "two", "words"],
      CommandTable.set.invocation(.value(.password, "two words"))
    ),
    (["set", "confirm", "x"], CommandTable.set.invocation(.value(.confirmPassword, "x"))),
    (["set", "otp", "123456"], CommandTable.set.invocation(.value(.otp, "123456"))),
    (["set", "code", "123456"], CommandTable.set.invocation(.value(.otp, "123456"))),
    (["set", "password"], CommandTable.set.invocation(.ask(.password))),
    (["set", "password", "$PW"], CommandTable.set.invocation(.variable(.password, name: "PW"))),
    (["clear", "email"], CommandTable.clear.invocation(.email)),
    (["show"], CommandTable.show.invocation()),
    (["dismiss"], CommandTable.dismiss.invocation()),
    (["network", "offline"], CommandTable.network.invocation(.offline)),
    (["network", "online"], CommandTable.network.invocation(.online)),
    (["events"], CommandTable.events.invocation()),
    (["help"], CommandTable.help.invocation(nil)),
    (["help", "consent"], CommandTable.help.invocation(CommandTable.consent.spec)),
    (["?"], CommandTable.help.invocation(nil)),
    (["quit"], CommandTable.quit.invocation()),
    (["exit"], CommandTable.quit.invocation()),
    (["whoami"], CommandTable.whoami.invocation()),
    (["token"], CommandTable.token.invocation()),
    (["refresh"], CommandTable.refresh.invocation()),
    (["signout"], CommandTable.signout.invocation()),
    (["delete-account"], CommandTable.deleteAccount.invocation(false)),
    (["delete-account", "confirm"], CommandTable.deleteAccount.invocation(true)),
    (["mail"], CommandTable.mail.invocation(.list)),
    (["mail", "code"], CommandTable.mail.invocation(.code)),
    (["mail", "open"], CommandTable.mail.invocation(.open)),
    (
      ["open", "authflow://auth/verify?x"], CommandTable.open.invocation("authflow://auth/verify?x")
    ),
    (["clock", "advance", "90s"], CommandTable.clock.invocation(.init(seconds: 90, text: "90s"))),
    (
      ["clock", "advance", "1h30m"],
      CommandTable.clock.invocation(.init(seconds: 5_400, text: "1h30m"))
    ),
    (
      ["clock", "advance", "2d"], CommandTable.clock.invocation(.init(seconds: 172_800, text: "2d"))
    ),
    (["record"], CommandTable.record.invocation(.status)),
    (["record", "stop"], CommandTable.record.invocation(.stop)),
    (
      ["record", "a.authflow", "--transcript"],
      CommandTable.record.invocation(.start(path: "a.authflow", transcript: true))
    ),
    (["expect", "state", "reset-verify"], CommandTable.expect.invocation(.state(.resetVerify))),
    (["expect", "consent", "on"], CommandTable.expect.invocation(.consent(true))),
    (
      ["expect", "pending-email", "a@b.co"], CommandTable.expect.invocation(.pendingEmail("a@b.co"))
    ),
    (["expect", "error", "Some", "words"], CommandTable.expect.invocation(.error("Some words"))),
    (["expect", "no-error"], CommandTable.expect.invocation(.noError)),
    (["expect", "banner", "Hello"], CommandTable.expect.invocation(.banner("Hello"))),
    (["expect", "no-banner"], CommandTable.expect.invocation(.noBanner)),
    (["expect", "field", "email", ""], CommandTable.expect.invocation(.field(.email, ""))),
    (["expect", "field", "otp", "123456"], CommandTable.expect.invocation(.field(.otp, "123456"))),
    (["expect", "signed-in"], CommandTable.expect.invocation(.signedIn(nil))),
    (["expect", "signed-in", "a@b.co"], CommandTable.expect.invocation(.signedIn("a@b.co"))),
    (["expect", "signed-out"], CommandTable.expect.invocation(.signedOut)),
    (["expect", "can-submit", "yes"], CommandTable.expect.invocation(.canSubmit(true))),
  ])
  func parses(words: [String], expected: Invocation) throws {
    let invocation = try LineParser.parse(words: words).get()
    #expect(invocation.spec == expected.spec)
    #expect(invocation.input == expected.input, "the command's own value")
  }

  @Test(arguments: [
    (["sigin"], "unknown command 'sigin'; did you mean 'signin'? Type help for the list"),
    (["shwo"], "unknown command 'shwo'; did you mean 'show'? Type help for the list"),
    (["xyzzy"], "unknown command (not repeated, in case it was a secret); type help for the list"),
    (["signin", "now"], "signin takes no arguments; usage: signin"),
    (["consent"], "consent takes on or off; usage: consent on|off"),
    (["consent", "maybe"], "consent takes on or off; usage: consent on|off"),
    (["set"], "set takes a field and its value; usage: set <field> [value]"),
    (
      ["set", "username", "x"],
      "there is no such field (not repeated, in case it was a secret); fields: email, password, confirm, otp, first-name, last-name"
    ),
    (
      ["set", "pasword", "x"],
      "there is no field named that; did you mean 'password'? Fields: email, password, confirm, otp, first-name, last-name"
    ),
    (["clear", "email", "password"], "clear takes one field, or nothing; usage: clear [<field>]"),
    (
      ["network", "slow"],
      "network takes online, offline or unreachable; usage: network online|offline|unreachable"
    ),
    (["help", "a", "b"], "help takes at most one command name; usage: help [command]"),
    (["help", "s3cr3t"], "no command named that; type help for the list"),
    (["help", "hlep"], "no command named that; did you mean 'help'?"),
    (["mail", "delete"], "mail takes code, open or nothing; usage: mail [code|open]"),
    (["open"], "open takes one link; usage: open <link>"),
    (
      ["clock", "advance", "soon"],
      "clock takes a duration such as 90s, 15m, 25h or 1h30m, up to 3650d; usage: clock advance <duration>"
    ),
    (
      ["clock", "back", "1h"],
      "clock takes a duration such as 90s, 15m, 25h or 1h30m, up to 3650d; usage: clock advance <duration>"
    ),
    (
      ["expect"],
      "expect needs something to check; one of: state, consent, pending-email, error, no-error, banner, no-banner, field, signed-in, signed-out, can-submit"
    ),
    (
      ["expect", "state", "home"],
      "expect state takes a screen name; usage: expect state <choice|login|signup|reset-request|reset-verify>"
    ),
    (
      ["expect", "weather"],
      "expect cannot check that; one of: state, consent, pending-email, error, no-error, banner, no-banner, field, signed-in, signed-out, can-submit"
    ),
    (
      ["expect", "can-submit", "maybe"],
      "expect can-submit takes yes or no; usage: expect can-submit yes|no"
    ),
    (
      ["expect", "error"],
      "expect error takes the error's text; usage: expect error <text>"
    ),
  ])
  func refuses(words: [String], message: String) {
    switch LineParser.parse(words: words) {
    case .success: Issue.record("\(words) should not parse")
    case .failure(let error): #expect(error.text == message)
    }
  }

  /// A line that did not parse is shown (echo, JSON, history) with only the words its
  /// command's grammar knows; every other word is masked.
  @Test(arguments: [
    ("network hunter2", "network ••••••••"),
    ("network online offline", "network online offline"),
    ("help s3cr3t", "help ••••••••"),
    ("help show quit", "help show quit"),
    ("clock advance p4ss", "clock advance ••••••••"),
    ("clock p4ss 90s", "clock •••••••• 90s"),
    ("record a b", "record •••••••• ••••••••"),
    ("record stop now", "record stop ••••••••"),
    ("record --transcript", "record --transcript"),
    ("show hunter2", "show ••••••••"),
    ("clear hunter2", "clear ••••••••"),
    ("clear passwrod", "clear ••••••••"),
    ("clear email password", "clear email password"),
    ("consent maybe", "consent ••••••••"),
    ("delete-account now", "delete-account ••••••••"),
    ("expect hunter2 x", "expect ••••••••"),
    ("sigin hunter2", "sigin ••••••••"),
  ])
  func unparsedLinesShowOnlyTheWordsTheGrammarKnows(line: String, shown: String) {
    let parsed = LineParser.parse(line[...])
    #expect(!parsed.parsedCleanly)
    #expect(parsed.display == shown)
  }

  private func context(
    _ screen: AuthScreen, signedIn: Bool = false, embedded: Bool = true
  ) -> ShellContext {
    let navigation: AuthNavigationState =
      switch screen {
      case .choice: .choice
      case .login: .login
      case .signup: .signup(consentAccepted: false)
      case .resetRequest: .resetRequest
      case .resetVerify: .resetVerify(pendingEmail: "a@b.co")
      }
    return ShellContext(
      screen: screen, fields: navigation.fields, signedIn: signedIn,
      features: embedded ? [.outbox, .clock] : [], backend: embedded ? .embedded : .supabase)
  }

  private func problem(_ words: [String], in context: ShellContext) -> String? {
    do {
      let invocation = try LineParser.parse(words: words).get()
      let refusal = invocation.spec.availability.refusal(
        signedIn: context.signedIn, screen: context.screen, fields: context.fields,
        features: context.features, field: invocation.input.field)
      return refusal?.error(command: invocation.spec.name, in: context).text
    } catch {
      return error.text
    }
  }

  @Test func buttonsOnTheWrongScreenSayWhereTheyAreAndWhatIsHere() {
    #expect(
      problem(["forgot"], in: context(.choice))
        == "'forgot' is on the login screen; this screen (choice) has: signin, create")
    #expect(
      problem(["signin"], in: context(.signup))
        == "'signin' is on the choice and login screens; this screen (signup) has: create, submit, suggest-password, back, consent"
    )
    #expect(
      problem(["consent", "on"], in: context(.login))
        == "'consent' is on the signup screen; this screen (login) has: signin, submit, forgot, resend, autofill, back"
    )
    #expect(
      problem(["submit"], in: context(.choice))?.hasPrefix(
        "'submit' is on the login, signup, reset-request and reset-verify screens") == true)
  }

  @Test func fieldsTheScreenDoesNotHave() {
    #expect(
      problem(["set", "otp", "1"], in: context(.login))
        == "the login screen has no otp field; its fields: email, password")
    #expect(
      problem(["set", "email", "a"], in: context(.choice))
        == "the choice screen has no email field; open a form first: signin or create")
    #expect(problem(["set", "otp", "1"], in: context(.resetVerify)) == nil)
    #expect(problem(["clear", "confirm"], in: context(.signup)) == nil)
  }

  @Test func signedInHidesTheFormAndSignedOutHidesTheAccount() {
    #expect(
      problem(["submit"], in: context(.login, signedIn: true))
        == "'submit' is a button of the sign-in screens, hidden while signed in; you can use: clear, show, dismiss, network, events, help, expect, record, present, version, quit, whoami, token, refresh, signout, reload, send-verification, change-password, delete-account, mail, open, clock"
    )
    #expect(
      problem(["set", "email", "a"], in: context(.login, signedIn: true))
        == "the form is hidden while signed in; signout first")
    #expect(
      problem(["whoami"], in: context(.login))
        == "'whoami' needs a signed-in user; sign in first: signin, then submit")
    #expect(problem(["signout"], in: context(.login, signedIn: true)) == nil)
  }

  @Test func embeddedCommandsOnAnotherBackend() {
    #expect(
      problem(["mail"], in: context(.login, embedded: false))
        == "'mail' needs an outbox to read (the embedded backend has one; supabase with --mailbox); the supabase backend has none"
    )
    #expect(problem(["clock", "advance", "1h"], in: context(.choice)) == nil)
  }

  @Test(arguments: [
    ("login", "signin"), ("LOGIN", "signin"), ("SignIn", "signin"), ("signup", "create"),
    ("register", "create"), ("logout", "signout"), ("exit", "quit"), ("exit()", "quit"),
    ("quit()", "quit"), ("q", "quit"), ("SHOW", "show"),
  ])
  func commonWordsAndAnyCaseNameTheCommand(typed: String, command: String) {
    #expect(CommandTable.spec(named: typed)?.name == command)
  }

  @Test(arguments: [("logn", "signin"), ("registr", "create"), ("logot", "signout")])
  func nearMissesNameTheIntendedCommand(typed: String, command: String) {
    #expect(CommandTable.suggestion(for: typed) == command)
  }

  @Test func theTableHasNoDuplicateNamesAndEveryCommandIsDocumented() {
    let names = CommandTable.all.flatMap(\.names)
    #expect(Set(names).count == names.count)
    for spec in CommandTable.all {
      #expect(!spec.summary.isEmpty && spec.usage.hasPrefix(spec.name), "\(spec.name)")
    }
  }

  @Test func completion() {
    #expect(Completion.candidates(for: "", in: context(.choice)).prefix(2) == ["signin", "create"])
    #expect(
      Completion.candidates(for: "s", in: context(.login)) == ["signin", "submit", "set", "show"])
    #expect(Completion.candidates(for: "set ", in: context(.login)) == ["email", "password"])
    #expect(Completion.candidates(for: "set p", in: context(.signup)) == ["password"])
    #expect(Completion.candidates(for: "consent ", in: context(.signup)) == ["on", "off"])
    #expect(Completion.candidates(for: "expect st", in: context(.choice)) == ["state"])
    #expect(
      Completion.candidates(for: "expect state reset-", in: context(.choice)) == [
        "reset-request", "reset-verify",
      ])
    #expect(
      Completion.candidates(for: "expect field ", in: context(.choice)) == [
        "email", "password", "confirm", "otp", "first-name", "last-name",
      ])
    #expect(Completion.candidates(for: "mail ", in: context(.choice)) == ["code", "open"])
    #expect(Completion.candidates(for: "sig", in: context(.login, signedIn: true)) == ["signout"])
    #expect(Completion.candidates(for: "show now ", in: context(.login)).isEmpty)
    #expect(Completion.candidates(for: "nonsense ", in: context(.login)).isEmpty)
    #expect(Completion.commonPrefix(["reset-request", "reset-verify"]) == "reset-")
    #expect(Completion.commonPrefix([]) == "")
  }
}
