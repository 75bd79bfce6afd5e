import AuthFlow

extension AuthField {
  /// The field's name in commands: `email`, `password`, `confirm`, `otp`, `first-name`,
  /// `last-name`.
  var commandName: String { rawValue }

  /// The field's label on screen.
  var label: String {
    switch self {
    case .email: "Email"
    case .password: "Password"
    case .confirmPassword: "Confirm password"
    case .otp: "Code"
    case .firstName: "First name (optional)"
    case .lastName: "Last name (optional)"
    }
  }

  /// The field named `name` in a command (`code` is accepted for `otp`).
  init?(commandName name: String) {
    if name == "code" {
      self = .otp
    } else {
      self.init(rawValue: name)
    }
  }
}
