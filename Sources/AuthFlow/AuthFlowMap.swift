/// The flow's own description of itself: where a user can be, what moves them, where it
/// leads, and every message it can show. Flow coverage and `authflow graph` read it, and the
/// tests drive the view model through every transition it lists, so it cannot drift.
public enum AuthFlowMap {
  /// Every transition of the flow.
  public static let transitions: [FlowTransition] = {
    var all: [FlowTransition] = [
      .init(.choice, .signIn, .login), .init(.choice, .createAccount, .signup),
      .init(.login, .forgotPassword, .resetRequest),
      .init(.login, .submit, .signedIn), .init(.login, .submit, .login),
      .init(.signup, .submit, .signedIn), .init(.signup, .submit, .signup),
      .init(.resetRequest, .submit, .resetVerify), .init(.resetRequest, .submit, .resetRequest),
      .init(.resetVerify, .submit, .login), .init(.resetVerify, .submit, .resetVerify),
      .init(.login, .openConfirmationLink, .login), .init(.signup, .openConfirmationLink, .login),
      .init(.signedIn, .openConfirmationLink, .signedIn),
      .init(.login, .openRecoveryLink, .resetVerify),
      .init(.resetVerify, .openRecoveryLink, .resetVerify),
      .init(.login, .openRecoveryLink, .resetRequest),
      .init(.signedIn, .signOut, .choice), .init(.signedIn, .deleteAccount, .choice),
      .init(.signedIn, .sessionEnded, .choice), .init(.signedIn, .changePassword, .signedIn),
    ]
    for form in [FlowNode.login, .signup, .resetRequest, .resetVerify] {
      all.append(.init(form, .back, .choice))
    }
    return all
  }()

  /// Every error the flow can show, by its stable code: the backend's and the form's.
  public static let errorCodes: [String] =
    AuthError.allCases.map(\.code) + ValidationIssue.allCases.map(\.rawValue)

  /// Every banner the flow can show.
  public static let banners: [AuthBanner] = [
    .offline, .resetCodeSent, .resetLinkSent, .verificationSent, .passwordUpdated,
    .confirmationSent, .confirmationSentKeepsPassword, .confirmationResent, .chooseNewPassword,
    .accountDeleted, .emailConfirmed, .emailVerified, .verificationResent, .verificationNotSent,
    .signedOutOffline,
    .passwordChanged, .reauthenticationCodeSent,
  ]
}

/// Where a user can be: a screen, or signed in.
public enum FlowNode: String, CaseIterable, Hashable, Sendable, Codable {
  case choice, login, signup
  case resetRequest = "reset-request"
  case resetVerify = "reset-verify"
  case signedIn = "signed-in"
}

/// What moves the user: a tap, or the backend's answer to one.
public enum FlowStep: String, CaseIterable, Hashable, Sendable, Codable {
  case signIn = "sign-in"
  case createAccount = "create-account"
  case forgotPassword = "forgot-password"
  case back, submit
  case openConfirmationLink = "open-confirmation-link"
  case openRecoveryLink = "open-recovery-link"
  case signOut = "sign-out"
  case deleteAccount = "delete-account"
  /// The backend refused the session (revoked or expired).
  case sessionEnded = "session-ended"
  /// The signed-in user changed their password (or was sent the code to).
  case changePassword = "change-password"
}

/// One edge of the flow: `from` --`step`--> `to`.
public struct FlowTransition: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Where the user was.
  public var from: FlowNode
  /// What moved them.
  public var step: FlowStep
  /// Where they are after it.
  public var to: FlowNode

  /// The edge `from` --`step`--> `to`.
  public init(_ from: FlowNode, _ step: FlowStep, _ to: FlowNode) {
    self.from = from
    self.step = step
    self.to = to
  }

  /// `login submit signed-in`.
  public var description: String { "\(from.rawValue) \(step.rawValue) \(to.rawValue)" }
}

extension AuthFlowState {
  /// Where the user is in the flow's map.
  public var node: FlowNode {
    if session != nil { return .signedIn }
    return switch navigation {
    case .choice: .choice
    case .login: .login
    case .signup: .signup
    case .resetRequest: .resetRequest
    case .resetVerify: .resetVerify
    }
  }
}
