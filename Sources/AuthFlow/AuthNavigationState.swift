/// The screen the authentication flow is showing, with the data that screen carries.
///
/// `.choice` is the entry state. Consent lives inside `.signup`, and the email a reset code was
/// sent to travels inside `.resetVerify`, so neither can outlive its screen.
public enum AuthNavigationState: Equatable, Hashable, Sendable {
  /// The entry screen with the "Sign In" and "Create Account" buttons.
  case choice
  /// The sign-in form for returning users.
  case login
  /// The account-creation form, with whether the terms are accepted.
  case signup(consentAccepted: Bool)
  /// The form that asks for the email to send a reset code to.
  case resetRequest
  /// The form that takes the emailed code and a new password.
  case resetVerify(pendingEmail: String)

  /// The screen of this state, without its payload.
  public var screen: AuthScreen {
    switch self {
    case .choice: .choice
    case .login: .login
    case .signup: .signup
    case .resetRequest: .resetRequest
    case .resetVerify: .resetVerify
    }
  }

  /// The form fields of this screen in focus order: login email → password; signup email →
  /// password → confirm; reset request email; reset verify code → password.
  public var fields: [AuthField] {
    switch self {
    case .choice: Self.noFields
    case .login: Self.loginFields
    case .signup: Self.signupFields
    case .resetRequest: Self.resetRequestFields
    case .resetVerify: Self.resetVerifyFields
    }
  }

  // Shared, so asking for the fields (which the shell does for every command) allocates nothing.
  private static let noFields: [AuthField] = []
  private static let loginFields: [AuthField] = [.email, .password]
  private static let signupFields: [AuthField] = [
    .email, .password, .confirmPassword, .firstName, .lastName,
  ]
  private static let resetRequestFields: [AuthField] = [.email]
  private static let resetVerifyFields: [AuthField] = [.otp, .password]

  /// The field that follows `field` in focus order, or `nil` when `field` is the last one.
  public func field(after field: AuthField) -> AuthField? {
    let order = fields
    guard let index = order.firstIndex(of: field), index + 1 < order.count else { return nil }
    return order[index + 1]
  }
}

/// A screen of the flow, named the way the shell, the events and the scripts name it.
public enum AuthScreen: String, CaseIterable, Hashable, Sendable {
  /// The entry screen.
  case choice
  /// The sign-in screen.
  case login
  /// The account-creation screen.
  case signup
  /// The screen asking where to send a reset code.
  case resetRequest = "reset-request"
  /// The screen taking the reset code and the new password.
  case resetVerify = "reset-verify"
}
