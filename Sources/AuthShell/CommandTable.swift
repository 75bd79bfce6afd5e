import AuthFlow

/// Where a command can be used.
public enum Availability: Equatable, Sendable {
  /// On these screens, while signed out: the screen's buttons.
  case screens([AuthScreen])
  /// On any screen with form fields, while signed out.
  case fields
  /// While signed in.
  case signedIn
  /// Anywhere.
  case anywhere
  /// Anywhere, on the embedded backend only.
  case embedded
}

/// What Tab offers after a command's name.
public enum ArgumentWords: Equatable, Sendable {
  /// Nothing.
  case none
  /// These words.
  case words([String])
  /// The fields of the screen on show.
  case fields
  /// Command names.
  case commands
  /// The kinds of `expect`.
  case expectations
}

/// One command of the shell: the single source for dispatch, help, completion and hints.
public final class CommandSpec: Sendable {
  /// The name typed.
  public let name: String
  /// Other names that do the same.
  public let aliases: [String]
  /// Where it can be used.
  public let availability: Availability
  /// The synopsis, e.g. `consent on|off`.
  public let usage: String
  /// What it does, in one line.
  public let summary: String
  /// What Tab completes after the name.
  public let arguments: ArgumentWords
  let parse: @Sendable (ArraySlice<String>) throws(ShellError) -> Command

  init(
    name: String, aliases: [String], availability: Availability, usage: String, summary: String,
    arguments: ArgumentWords,
    parse: @escaping @Sendable (ArraySlice<String>) throws(ShellError) -> Command
  ) {
    self.name = name
    self.aliases = aliases
    self.availability = availability
    self.usage = usage
    self.summary = summary
    self.arguments = arguments
    self.parse = parse
  }

  /// Every name the command answers to.
  public var names: [String] { [name] + aliases }
}

/// The shell's commands, in the order help lists them.
public enum CommandTable {
  /// Every command.
  public static let all: [CommandSpec] = buttons + fields + anywhere + signedIn + embedded

  /// The command named `name` (or one of its aliases).
  public static func spec(named name: String) -> CommandSpec? {
    index[name].map { all[$0] }
  }

  private static let index: [String: Int] = {
    var index: [String: Int] = [:]
    for (position, spec) in all.enumerated() {
      for name in spec.names { index[name] = position }
    }
    return index
  }()

  private static let forms: [AuthScreen] = [.login, .signup, .resetRequest, .resetVerify]

  private static let buttons: [CommandSpec] = [
    spec(
      "signin", .screens([.choice, .login]), "signin",
      "open the sign-in form (choice), or sign in with the form (login)", .signIn),
    spec(
      "create", .screens([.choice, .signup]), "create",
      "open the signup form (choice), or create the account (signup)", .create),
    spec("submit", .screens(forms), "submit", "press the submit button of the form", .submit),
    spec("send", .screens([.resetRequest]), "send", "send the reset code (submit)", .submit),
    spec(
      "verify", .screens([.resetVerify]), "verify", "set the new password with the code (submit)",
      .submit),
    spec(
      "forgot", .screens([.login]), "forgot",
      "\"Forgot password?\": reset the password, keeping the email", .forgot),
    spec("resend", .screens([.login]), "resend", "send the confirmation email again", .resend),
    spec(
      "autofill", .screens([.login]), "autofill",
      "fill in the email and password saved by this session's password manager", .autofill),
    spec("back", .screens(forms), "back", "back to the choice screen, clearing the form", .back),
    CommandSpec(
      name: "consent", aliases: [], availability: .screens([.signup]), usage: "consent on|off",
      summary: "accept or withdraw the terms", arguments: .words(["on", "off"]),
      parse: { arguments throws(ShellError) in
        .consent(try onOff(arguments, usage: "consent on|off"))
      }),
    spec(
      "suggest-password", .screens([.signup]), "suggest-password",
      "fill both password fields with a strong password, kept hidden", .suggestPassword),
  ]

  private static let fields: [CommandSpec] = [
    CommandSpec(
      name: "set", aliases: [], availability: .fields, usage: "set <field> [value]",
      summary: "fill in a field; with no value, type it unseen (interactive only)",
      arguments: .fields,
      parse: { arguments throws(ShellError) in
        guard let name = arguments.first else {
          throw ShellError("set needs a field", hint: "usage: set <field> [value]")
        }
        let field = try field(named: name)
        let rest = arguments.dropFirst()
        switch rest.count {
        case 0: return .set(field, nil)
        case 1: return .set(field, rest[rest.startIndex])
        default: return .set(field, rest.joined(separator: " "))
        }
      }),
    CommandSpec(
      name: "clear", aliases: [], availability: .fields, usage: "clear <field>",
      summary: "empty a field", arguments: .fields,
      parse: { arguments throws(ShellError) in
        guard arguments.count == 1 else {
          throw ShellError("clear takes one field", hint: "usage: clear <field>")
        }
        return .clear(try field(named: arguments[arguments.startIndex]))
      }),
  ]

  private static let anywhere: [CommandSpec] = [
    spec("show", .anywhere, "show", "show the screen: fields, buttons, banner and error", .show),
    spec("dismiss", .anywhere, "dismiss", "hide the error or the banner", .dismiss),
    CommandSpec(
      name: "network", aliases: [], availability: .anywhere, usage: "network online|offline",
      summary: "switch the simulated network", arguments: .words(["online", "offline"]),
      parse: { arguments throws(ShellError) in
        switch arguments.first {
        case "online" where arguments.count == 1: return .network(.online)
        case "offline" where arguments.count == 1: return .network(.offline)
        default:
          throw ShellError("network takes online or offline", hint: "usage: network online|offline")
        }
      }),
    spec("events", .anywhere, "events", "list the analytics events of this session", .events),
    CommandSpec(
      name: "help", aliases: ["?"], availability: .anywhere, usage: "help [command]",
      summary: "list the commands, or explain one", arguments: .commands,
      parse: { arguments throws(ShellError) in
        guard arguments.count <= 1 else {
          throw ShellError("help takes at most one command name", hint: "usage: help [command]")
        }
        return .help(arguments.first)
      }),
    CommandSpec(
      name: "expect", aliases: [], availability: .anywhere, usage: "expect <what> [value]",
      summary: "check the state; a failed check makes the exit status 1", arguments: .expectations,
      parse: { arguments throws(ShellError) in .expect(try ExpectationParser.parse(arguments)) }),
    spec(
      "quit", .anywhere, "quit", "leave the shell (also exit, Ctrl-D)", .quit, aliases: ["exit"]),
  ]

  private static let signedIn: [CommandSpec] = [
    spec("whoami", .signedIn, "whoami", "show the signed-in user", .whoami),
    spec(
      "token", .signedIn, "token", "show the access token's claims (never its signature)", .token),
    spec("refresh", .signedIn, "refresh", "exchange the refresh token for a new session", .refresh),
    spec("signout", .signedIn, "signout", "sign out and return to the choice screen", .signOut),
  ]

  private static let embedded: [CommandSpec] = [
    CommandSpec(
      name: "mail", aliases: [], availability: .embedded, usage: "mail [code|open]",
      summary: "list the outbox; code: fill in the newest code; open: follow the newest link",
      arguments: .words(["code", "open"]),
      parse: { arguments throws(ShellError) in
        switch (arguments.first, arguments.count) {
        case (nil, _): return .mail
        case ("code", 1): return .mailCode
        case ("open", 1): return .mailOpen
        default:
          throw ShellError("mail takes code, open or nothing", hint: "usage: mail [code|open]")
        }
      }),
    CommandSpec(
      name: "open", aliases: [], availability: .embedded, usage: "open <link>",
      summary: "open a link from an email, as tapping it would", arguments: .none,
      parse: { arguments throws(ShellError) in
        guard arguments.count == 1 else {
          throw ShellError("open takes one link", hint: "usage: open <link>")
        }
        return .open(arguments[arguments.startIndex])
      }),
    CommandSpec(
      name: "clock", aliases: [], availability: .embedded, usage: "clock advance <duration>",
      summary: "move the backend's clock forward (90s, 15m, 25h, 1h30m)",
      arguments: .words(["advance"]),
      parse: { arguments throws(ShellError) in
        guard arguments.count == 2, arguments.first == "advance",
          let seconds = DurationParser.seconds(arguments[arguments.startIndex + 1])
        else {
          throw ShellError(
            "clock advance takes a duration",
            hint: "for example: clock advance 90s, 15m, 25h or 1h30m")
        }
        return .clockAdvance(seconds)
      }),
  ]

  private static func spec(
    _ name: String, _ availability: Availability, _ usage: String, _ summary: String,
    _ command: Command, aliases: [String] = []
  ) -> CommandSpec {
    CommandSpec(
      name: name, aliases: aliases, availability: availability, usage: usage, summary: summary,
      arguments: .none,
      parse: { arguments throws(ShellError) in
        guard arguments.isEmpty else {
          throw ShellError("\(name) takes no arguments", hint: "usage: \(usage)")
        }
        return command
      })
  }

  private static func onOff(_ arguments: ArraySlice<String>, usage: String) throws(ShellError)
    -> Bool
  {
    switch arguments.first {
    case "on" where arguments.count == 1: return true
    case "off" where arguments.count == 1: return false
    default: throw ShellError("expected on or off", hint: "usage: \(usage)")
    }
  }

  static func field(named name: String) throws(ShellError) -> AuthField {
    guard let field = AuthField(commandName: name) else {
      throw ShellError(
        "there is no field named '\(name.prefix(20))'",
        hint: "fields: email, password, confirm, otp")
    }
    return field
  }
}

/// Durations such as `90s`, `15m`, `25h`, `2d` or `1h30m`.
enum DurationParser {
  static func seconds(_ text: String) -> Double? {
    var total = 0.0
    var number = ""
    for character in text {
      if character.isASCII, character.isNumber {
        number.append(character)
        continue
      }
      guard let value = Double(number) else { return nil }
      switch character {
      case "s": total += value
      case "m": total += value * 60
      case "h": total += value * 3_600
      case "d": total += value * 86_400
      default: return nil
      }
      number = ""
    }
    return number.isEmpty && total > 0 ? total : nil
  }
}
