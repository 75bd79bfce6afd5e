/// Everything the authentication flow shows, as one value: what ``AuthViewModel`` holds, what
/// front ends render and what tests compare after each step.
public struct AuthFlowState: Equatable, Hashable, Sendable {
  /// The screen on show, with its payload.
  public var navigation: AuthNavigationState
  /// The form fields.
  public var form: AuthForm
  /// The error or the banner on show; never both, because it is one value.
  public var message: AuthMessage?
  /// The signed-in session, or `nil` while signed out.
  public var session: AuthSession?
  /// Whether the network is reachable.
  public var network: NetworkStatus
  /// The request being made of the backend right now, if any.
  public var inFlight: AuthAction?
  /// What the backend's reset codes look like (its ``AuthService/resetCodeFormat``).
  public var resetCodeFormat: ResetCodeFormat

  /// A state with the given parts; the defaults are the entry screen, empty and online.
  public init(
    navigation: AuthNavigationState = .choice, form: AuthForm = AuthForm(),
    message: AuthMessage? = nil, session: AuthSession? = nil, network: NetworkStatus = .online,
    inFlight: AuthAction? = nil, resetCodeFormat: ResetCodeFormat = .sixDigits
  ) {
    self.navigation = navigation
    self.form = form
    self.message = message
    self.session = session
    self.network = network
    self.inFlight = inFlight
    self.resetCodeFormat = resetCodeFormat
  }

  /// The first rule the form on show breaks, in the order submit checks them, or `nil` when
  /// it passes: the one statement of the forms' rules, for submit and for the button.
  public var validationIssue: ValidationIssue? {
    let email = AuthValidation.normalizedEmail(form.email)
    switch navigation {
    case .choice:
      return nil
    case .login:
      return AuthValidation.checkEmail(email) ?? AuthValidation.checkLoginPassword(form.password)
    case .signup(let consentAccepted):
      return AuthValidation.checkEmail(email)
        ?? AuthValidation.checkNewPassword(form.password)
        ?? (form.password == form.confirmPassword ? nil : .passwordsDontMatch)
        ?? (consentAccepted ? nil : .consentRequired)
    case .resetRequest:
      return AuthValidation.checkEmail(email)
    case .resetVerify:
      return AuthValidation.checkCode(form.otpCode, format: resetCodeFormat)
        ?? AuthValidation.checkNewPassword(form.password)
    }
  }

  /// The error text on show, if the message is an error.
  public var errorMessage: String? {
    if case .error(let text) = message { text } else { nil }
  }

  /// The banner on show, if the message is a banner.
  public var banner: AuthBanner? {
    if case .banner(let banner) = message { banner } else { nil }
  }

  /// Why the submit button of the screen on show is disabled, or `nil` when it is enabled.
  public var submitBlocker: SubmitBlocker? {
    if session != nil { return .signedIn }
    if let inFlight { return .inFlight(inFlight) }
    if network == .offline { return .offline }
    if case .choice = navigation { return .noForm }
    if let missing = navigation.fields.first(where: { $0.isRequired && form[$0].isEmpty }) {
      return .missing(missing)
    }
    return switch validationIssue {
    case nil: nil
    case .consentRequired: .consentRequired
    case let issue?: .invalid(issue)
    }
  }

  /// Whether the submit button of the screen on show is enabled.
  public var canSubmit: Bool { submitBlocker == nil }
}

/// The one message a screen shows: an error under the form, or a banner above it.
public enum AuthMessage: Equatable, Hashable, Sendable {
  /// Why the last action failed, as the user reads it.
  case error(String)
  /// A status banner.
  case banner(AuthBanner)
}

/// The fields of the forms. Its descriptions mask the secrets, so printing or dumping a state
/// cannot leak a password or a code.
public struct AuthForm: Equatable, Hashable, Sendable {
  /// The email field.
  public var email: String
  /// The password field; the new password on the reset-verify screen.
  public var password: String
  /// The confirm-password field of the signup screen.
  public var confirmPassword: String
  /// The reset-code field of the reset-verify screen.
  public var otpCode: String
  /// The optional first-name field of the signup screen.
  public var firstName: String
  /// The optional last-name field of the signup screen.
  public var lastName: String

  /// A form with the given values; empty by default.
  public init(
    email: String = "", password: String = "", confirmPassword: String = "", otpCode: String = "",
    firstName: String = "", lastName: String = ""
  ) {
    self.email = email
    self.password = password
    self.confirmPassword = confirmPassword
    self.otpCode = otpCode
    self.firstName = firstName
    self.lastName = lastName
  }

  /// The value of `field`.
  public subscript(field: AuthField) -> String {
    get {
      switch field {
      case .email: email
      case .password: password
      case .confirmPassword: confirmPassword
      case .otp: otpCode
      case .firstName: firstName
      case .lastName: lastName
      }
    }
    set {
      switch field {
      case .email: email = newValue
      case .password: password = newValue
      case .confirmPassword: confirmPassword = newValue
      case .otp: otpCode = newValue
      case .firstName: firstName = newValue
      case .lastName: lastName = newValue
      }
    }
  }
}

extension AuthForm: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The fields with every secret masked.
  public var description: String {
    let fields = AuthField.allCases.map { field in
      let value = self[field]
      return "\(field.rawValue): \(field.isSecret && !value.isEmpty ? "••••" : "\"\(value)\"")"
    }
    return "AuthForm(\(fields.joined(separator: ", ")))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// A mirror showing only whether each secret is filled in.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: AuthField.allCases.map { field in
        let value = self[field]
        return (label: field.rawValue, value: field.isSecret && !value.isEmpty ? "••••" : value)
      }, displayStyle: .struct)
  }
}

/// Why the submit button of the current screen is disabled.
public enum SubmitBlocker: Equatable, Hashable, Sendable {
  /// The screen has no form (the choice screen).
  case noForm
  /// A user is signed in, so the auth forms are not on show.
  case signedIn
  /// A request is already in flight.
  case inFlight(AuthAction)
  /// The device is offline.
  case offline
  /// A required field is empty.
  case missing(AuthField)
  /// A field breaks a rule of the form (the message submit would show).
  case invalid(ValidationIssue)
  /// The terms have not been accepted.
  case consentRequired
}
