/// A control of the flow's screens, as an app's views show it and a screen reader announces
/// it (seed 002 scenario 10). Each screen lists its controls in ``AuthScreen/controls``, and
/// ``accessibility(on:)`` gives each one's label, trait and hint for `.accessibilityLabel`,
/// `.accessibilityHint` and `.accessibilityAddTraits`.
public enum AuthControl: Hashable, Sendable {
  /// "Sign In" on the choice screen: opens the sign-in form.
  case signIn
  /// "Create Account" on the choice screen: opens the signup form.
  case createAccount
  /// A field of the form.
  case field(AuthField)
  /// The signup screen's switch accepting the terms.
  case consent
  /// The form's submit button; its label depends on the screen.
  case submit
  /// The sign-in screen's "Forgot password?" link.
  case forgotPassword
  /// The sign-in screen's button sending the confirmation email again.
  case resendConfirmation
  /// The navigation bar's back button, on every screen but the entry one.
  case back

  /// How a screen reader presents the control on `screen`.
  public func accessibility(on screen: AuthScreen) -> AccessibilityDescription {
    switch self {
    case .signIn:
      .init("Sign In", .button, hint: "Opens the sign-in form.")
    case .createAccount:
      .init("Create Account", .button, hint: "Opens the form to create an account.")
    case .field(.password) where screen == .resetVerify:
      .init(
        "New password", .secureTextField,
        hint: "The password to sign in with from now on: 8 characters, a letter and a number.")
    case .field(let field):
      field.accessibility
    case .consent:
      .init(
        "Consent", .toggle, hint: "Accept the terms of service and the privacy policy to continue.")
    case .submit:
      .init(Self.submitLabel(on: screen), .button, hint: screen.submitAccessibilityHint)
    case .forgotPassword:
      .init("Forgot password?", .link, hint: "Opens the form to reset your password by email.")
    case .resendConfirmation:
      .init(
        "Resend confirmation", .button,
        hint: "Sends the email confirming your address again.")
    case .back:
      .init("Back", .button, hint: "Returns to the start and clears the form.")
    }
  }

  private static func submitLabel(on screen: AuthScreen) -> String {
    switch screen {
    case .choice, .login: "Sign In"
    case .signup: "Create Account"
    case .resetRequest: "Send code"
    case .resetVerify: "Reset password"
    }
  }
}

extension AuthScreen {
  /// The screen's controls in reading order: the fields in focus order, the consent switch,
  /// the submit button, the links and buttons under it, and Back.
  public var controls: [AuthControl] {
    switch self {
    case .choice: [.signIn, .createAccount]
    case .login:
      [.field(.email), .field(.password), .submit, .forgotPassword, .resendConfirmation, .back]
    case .signup:
      AuthNavigationState.signup(consentAccepted: false).fields.map(AuthControl.field)
        + [.consent, .submit, .back]
    case .resetRequest: [.field(.email), .submit, .back]
    case .resetVerify: [.field(.otp), .field(.password), .submit, .back]
    }
  }

  /// What a screen reader says the screen's submit button does, or `nil` on the choice screen.
  public var submitAccessibilityHint: String? {
    switch self {
    case .choice: nil
    case .login: "Signs in with the email address and password."
    case .signup: "Creates your account with these details."
    case .resetRequest: "Emails you a code to reset your password."
    case .resetVerify: "Sets the new password with the code from the email."
    }
  }
}

extension AuthMessage {
  /// What a screen reader announces when the message appears (seed 002 scenario 10: "Error
  /// messages announced immediately when they appear"); post it as an announcement.
  public var accessibilityAnnouncement: String {
    switch self {
    case .error(let text): "Error: \(text)"
    case .banner(let banner) where banner.kind == .warning: "Warning: \(banner.message)"
    case .banner(let banner): banner.message
    }
  }
}

extension AuthFlowState {
  /// What a screen reader should announce after the state went from `before` to this one: the
  /// message, when a new one appeared; `nil` when the message is gone or unchanged.
  public func accessibilityAnnouncement(since before: AuthFlowState) -> String? {
    guard let message, message != before.message else { return nil }
    return message.accessibilityAnnouncement
  }
}
