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

  /// Whether the field holds a secret that must never be shown, logged or stored.
  public var isSecret: Bool {
    switch self {
    case .email: false
    case .password, .confirmPassword, .otp: true
    }
  }
}
