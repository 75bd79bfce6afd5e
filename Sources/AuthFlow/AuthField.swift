/// A form field of the flow, the value `@FocusState` tracks in the app.
public enum AuthField: String, CaseIterable, Hashable, Sendable {
  /// The email address.
  case email
  /// The password, or the new password on the reset-verify screen.
  case password
  /// The repeated password on the signup screen.
  case confirmPassword = "confirm"
  /// The 6-digit code from the reset email.
  case otp
  /// The user's first name on the signup screen (optional; seed 003's registration).
  case firstName = "first-name"
  /// The user's last name on the signup screen (optional).
  case lastName = "last-name"

  /// Whether the field holds a secret that must never be shown, logged or stored.
  public var isSecret: Bool {
    switch self {
    case .email, .firstName, .lastName: false
    case .password, .confirmPassword, .otp: true
    }
  }

  /// Whether the form cannot be submitted while the field is empty.
  public var isRequired: Bool {
    switch self {
    case .firstName, .lastName: false
    case .email, .password, .confirmPassword, .otp: true
    }
  }

  /// What a screen reader calls the field (seed 002 scenario 10: "Email address").
  public var accessibilityLabel: String {
    switch self {
    case .email: "Email address"
    case .password: "Password"
    case .confirmPassword: "Confirm password"
    case .otp: "Reset code"
    case .firstName: "First name"
    case .lastName: "Last name"
    }
  }

  /// The kind of control a screen reader announces after the label: "text field", or
  /// "secure text field" for a secret.
  public var accessibilityTrait: String { accessibility.trait.rawValue }

  /// How a screen reader presents the field (see ``AuthControl`` for every control).
  public var accessibility: AccessibilityDescription {
    .init(
      accessibilityLabel, isSecret ? .secureTextField : .textField, hint: accessibilityHint)
  }

  /// What a screen reader says the field is for.
  public var accessibilityHint: String {
    switch self {
    case .email: "The email address of your account."
    case .password: "Your password. New passwords need 8 characters, a letter and a number."
    case .confirmPassword: "Type the new password again."
    case .otp: "The code from the password-reset email."
    case .firstName: "Optional."
    case .lastName: "Optional."
    }
  }
}

extension AuthNavigationState {
  /// What a screen reader says the screen's submit button does (seed 002 scenario 10: the
  /// submit button is announced with a hint), or `nil` on the choice screen.
  public var submitAccessibilityHint: String? { screen.submitAccessibilityHint }
}
