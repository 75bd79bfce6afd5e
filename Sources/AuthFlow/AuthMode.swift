/// The navigation enum from before the choice screen, kept so older callers still compile.
@available(*, deprecated, renamed: "AuthNavigationState", message: "Use AuthNavigationState.")
public enum AuthMode: Equatable, Hashable, Sendable {
  /// The sign-in form.
  case login
  /// The account-creation form, with whether the terms are accepted.
  case signup(consentAccepted: Bool)
  /// The form asking where to send a reset code.
  case resetRequest
  /// The form taking the reset code and a new password.
  case resetVerify(pendingEmail: String)
}

@available(*, deprecated)
extension AuthMode {
  /// The navigation state showing the same screen.
  public var navigationState: AuthNavigationState {
    switch self {
    case .login: .login
    case .signup(let consentAccepted): .signup(consentAccepted: consentAccepted)
    case .resetRequest: .resetRequest
    case .resetVerify(let pendingEmail): .resetVerify(pendingEmail: pendingEmail)
    }
  }

  /// The mode of `state`, or `nil` for `.choice`, which `AuthMode` cannot express.
  public init?(_ state: AuthNavigationState) {
    switch state {
    case .choice: return nil
    case .login: self = .login
    case .signup(let consentAccepted): self = .signup(consentAccepted: consentAccepted)
    case .resetRequest: self = .resetRequest
    case .resetVerify(let pendingEmail): self = .resetVerify(pendingEmail: pendingEmail)
    }
  }
}
