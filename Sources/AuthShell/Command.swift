import AuthFlow

/// A command the shell understands, with its arguments parsed.
public enum Command: Equatable, Sendable {
  /// `signin`: opens the sign-in form on the choice screen, submits it on the login screen.
  case signIn
  /// `create`: opens the signup form on the choice screen, submits it on the signup screen.
  case create
  /// `submit`, `send`, `verify`: the submit button of the form on show.
  case submit
  /// `forgot`: "Forgot password?".
  case forgot
  /// `resend`: sends the confirmation email again.
  case resend
  /// `back`: returns to the choice screen.
  case back
  /// `consent on|off`.
  case consent(Bool)
  /// `suggest-password`: fills both password fields with a strong password.
  case suggestPassword
  /// `autofill`: fills the login form with the credentials saved in this session.
  case autofill
  /// `set <field> [value]`; no value asks for it (interactive only).
  case set(AuthField, String?)
  /// `clear <field>`.
  case clear(AuthField)
  /// `show`: renders the screen.
  case show
  /// `dismiss`: hides the error or banner.
  case dismiss
  /// `network online|offline`.
  case network(NetworkStatus)
  /// `events`: lists the analytics events.
  case events
  /// `help [command]`.
  case help(String?)
  /// `quit`, `exit`.
  case quit
  /// `whoami`.
  case whoami
  /// `token`: the access token's claims.
  case token
  /// `refresh`: renews the session.
  case refresh
  /// `signout`.
  case signOut
  /// `mail`: lists the outbox.
  case mail
  /// `mail code`: fills the code field from the newest email.
  case mailCode
  /// `mail open`: follows the newest link sent to the current email.
  case mailOpen
  /// `open <link>`.
  case open(String)
  /// `clock advance <duration>`, in seconds.
  case clockAdvance(Double)
  /// `expect …`.
  case expect(Expectation)
}

/// A check in a script (`expect …`).
public enum Expectation: Equatable, Sendable {
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
}

extension AuthField {
  /// The field's name in commands: `email`, `password`, `confirm`, `otp`.
  public var commandName: String { rawValue }

  /// The field's label on screen.
  public var label: String {
    switch self {
    case .email: "Email"
    case .password: "Password"
    case .confirmPassword: "Confirm password"
    case .otp: "Code"
    }
  }

  /// The field named `name` in a command (`code` is accepted for `otp`).
  public init?(commandName name: String) {
    if name == "code" {
      self = .otp
    } else {
      self.init(rawValue: name)
    }
  }
}
