/// Something the user did or saw, for analytics. No event carries an email, password or code.
public enum AuthEvent: Equatable, Hashable, Sendable {
  /// A screen came into view.
  case screenViewed(AuthScreen)
  /// The user asked for `action` and the request is about to be made.
  case submitted(AuthAction)
  /// `action` succeeded.
  case succeeded(AuthAction)
  /// `action` failed before or at the backend, for `reason`.
  case failed(AuthAction, reason: AuthFailureReason)
  /// The session changed (no user data: the change alone).
  case sessionChanged(SessionChange)

  /// The event name, in the snake_case analytics tools expect.
  public var name: String {
    switch self {
    case .screenViewed: "auth_screen_viewed"
    case .submitted: "auth_submitted"
    case .succeeded: "auth_succeeded"
    case .failed: "auth_failed"
    case .sessionChanged: "auth_session_changed"
    }
  }

  /// The event's properties as ordered key-value pairs.
  public var properties: KeyValuePairs<String, String> {
    switch self {
    case .screenViewed(let screen): ["screen": screen.rawValue]
    case .submitted(let action), .succeeded(let action): ["action": action.rawValue]
    case .failed(let action, let reason): ["action": action.rawValue, "reason": reason.code]
    case .sessionChanged(let change): ["change": change.rawValue]
    }
  }
}

/// A request the flow makes of the backend.
public enum AuthAction: String, CaseIterable, Hashable, Sendable {
  /// Sign in with email and password.
  case signIn = "sign_in"
  /// Create an account.
  case signUp = "sign_up"
  /// Ask for a password-reset code.
  case resetRequest = "reset_request"
  /// Set a new password with the emailed code.
  case resetVerify = "reset_verify"
  /// Ask the backend whose reset code a link carries (a Firebase link has no email).
  case checkResetCode = "check_reset_code"
  /// Send the confirmation email again.
  case resendConfirmation = "resend_confirmation"
  /// Confirm an email address from its link.
  case confirmEmail = "confirm_email"
  /// Renew the session's tokens.
  case refresh
  /// Restore the session saved by an earlier run.
  case restoreSession = "restore_session"
  /// End the session.
  case signOut = "sign_out"
  /// Delete the signed-in user's account.
  case deleteAccount = "delete_account"
  /// Change the signed-in user's password.
  case changePassword = "change_password"
}

/// Why an action failed, in terms safe to send to analytics.
public enum AuthFailureReason: Equatable, Hashable, Sendable {
  /// The form was rejected before any backend call.
  case validation(ValidationIssue)
  /// The device was offline, so no call was made.
  case offline
  /// The backend answered with an error.
  case service(AuthError)
  /// The request was cancelled, or its screen was left before the answer came.
  case cancelled

  /// A stable snake_case code for the reason.
  public var code: String {
    switch self {
    case .validation(let issue): "validation.\(issue.rawValue)"
    case .offline: "offline"
    case .service(let error): error.code
    case .cancelled: "cancelled"
    }
  }
}

/// Where the view model sends its analytics events; injected, so tests and the shell can record
/// them and an app can forward them to its analytics client.
public struct AuthEventSink: Sendable {
  private let record: @MainActor @Sendable (AuthEvent) -> Void

  /// A sink that hands each event to `record`.
  public init(_ record: @escaping @MainActor @Sendable (AuthEvent) -> Void) {
    self.record = record
  }

  /// A sink that drops every event.
  public static let none = AuthEventSink { _ in }

  /// Sends `event` to the sink.
  @MainActor public func callAsFunction(_ event: AuthEvent) {
    record(event)
  }
}

/// How the session changed.
public enum SessionChange: String, CaseIterable, Hashable, Sendable {
  /// A sign-in or a signup started a session.
  case signedIn = "signed_in"
  /// The tokens were renewed.
  case refreshed
  /// The user signed out.
  case signedOut = "signed_out"
  /// The backend no longer accepts the session (revoked or expired); the user signs in again.
  case expired
  /// A session saved by an earlier run was taken up again.
  case restored
}

/// One element of ``AuthViewModel/sessionUpdates()``: what changed and the session now (`nil`
/// once signed out or expired).
public struct SessionUpdate: Equatable, Sendable {
  /// What changed.
  public var change: SessionChange
  /// The session after the change.
  public var session: AuthSession?

  /// An update with the given parts.
  public init(change: SessionChange, session: AuthSession?) {
    self.change = change
    self.session = session
  }
}
