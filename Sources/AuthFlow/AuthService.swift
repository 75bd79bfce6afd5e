#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An authentication backend: what the view model asks of it, with typed failures.
///
/// Implementations keep their own session storage: they save the session after a sign-in,
/// hand it back from ``restoreSession()`` on the next start, and forget it on sign-out.
public protocol AuthService: Sendable {
  /// Signs in with an email and password.
  func signIn(email: String, password: String) async throws(AuthError) -> AuthSession

  /// Creates an account; signs in at once or asks for the email to be confirmed first.
  func signUp(_ request: SignUpRequest) async throws(AuthError) -> SignUpResult

  /// Sends a password-reset code; succeeds the same way whether or not the account exists.
  func requestPasswordReset(email: String) async throws(AuthError)

  /// Checks the emailed reset `code` and sets `newPassword`; the user then signs in with it.
  func resetPassword(email: String, code: String, newPassword: String) async throws(AuthError)

  /// Confirms the email address with the code from its confirmation email or link.
  func confirmEmail(email: String, code: String) async throws(AuthError)

  /// Sends the confirmation email again; says nothing about whether the account exists.
  func resendConfirmation(email: String) async throws(AuthError)

  /// Exchanges the session's refresh token for fresh tokens.
  func refresh(_ session: AuthSession) async throws(AuthError) -> AuthSession

  /// The session saved by an earlier run, refreshed if it was about to expire, or `nil`.
  func restoreSession() async throws(AuthError) -> AuthSession?

  /// Changes the signed-in user's password to `newPassword`, keeping them signed in (seed 004's
  /// `updatePassword`). `nonce` is the code a ``PasswordChangeResult/reauthenticationCodeSent``
  /// answer emailed, when the backend asked for one.
  func updatePassword(_ session: AuthSession, newPassword: String, nonce: String?)
    async throws(AuthError) -> PasswordChangeResult

  /// Ends the session at the backend and forgets it locally, even if the backend is unreachable.
  func signOut(_ session: AuthSession) async throws(AuthError)

  /// Forgets the saved session on this device only, telling the backend nothing: signing out
  /// while offline.
  func forgetSession()

  /// Ends at the backend a `session` this device already forgot (a sign-out made offline,
  /// told once the network is back); the session saved now, if any, is left alone.
  func endForgottenSession(_ session: AuthSession) async throws(AuthError)

  /// What the backend's password-reset codes look like.
  var resetCodeFormat: ResetCodeFormat { get }

  /// The address a reset `code` was sent to, when the backend can tell from the code alone
  /// (a Firebase link carries no email); `nil` when it cannot.
  func emailForResetCode(_ code: String) async throws(AuthError) -> String?

  /// The address a link's `code` was sent to even when the link can no longer be used (spent
  /// or expired), when the backend can tell; `nil` when it cannot. The screen a spent link
  /// lands on keeps the address, so asking again is one step.
  func recipient(ofLinkCode code: String) async -> String?

  /// Deletes the signed-in user's account with everything kept with it, and forgets the
  /// session (seed 004's GDPR deletion).
  func deleteAccount(_ session: AuthSession) async throws(AuthError)

  /// The signed-in user as the backend keeps them now, read without renewing the session (what
  /// Firebase's `User.reload()` asks of `accounts:lookup`); `nil` when the backend cannot tell
  /// without renewing it.
  func reloadUser(_ session: AuthSession) async throws(AuthError) -> AuthUser?

  /// Takes the session a server handed the app in a link (``LinkTokens``), after checking it
  /// with the server, and keeps it as ``signIn(email:password:)`` would.
  func session(from tokens: LinkTokens) async throws(AuthError) -> AuthSession
}

extension AuthService {
  /// Six digits, as GoTrue's emails carry.
  public var resetCodeFormat: ResetCodeFormat { .sixDigits }

  /// GoTrue's links carry the email, so the code need not tell it.
  public func emailForResetCode(_ code: String) async throws(AuthError) -> String? { nil }

  /// A backend that cannot tell whose a spent link was.
  public func recipient(ofLinkCode code: String) async -> String? { nil }

  /// A backend that tells a user's state only through a renewed session.
  public func reloadUser(_ session: AuthSession) async throws(AuthError) -> AuthUser? { nil }

  /// A backend whose links never carry a session (Firebase's carry codes only).
  public func session(from tokens: LinkTokens) async throws(AuthError) -> AuthSession {
    throw .linkInvalid
  }

  /// A backend without a way to delete accounts from the app.
  public func deleteAccount(_ session: AuthSession) async throws(AuthError) {
    throw .accountDeletionUnavailable
  }
}

/// How a backend's password-reset codes look, so the form checks and explains the right thing.
public enum ResetCodeFormat: String, Equatable, Hashable, Sendable {
  /// Six digits, typed from the email or taken from its link (GoTrue).
  case sixDigits = "six_digits"
  /// An opaque code that only the email's link carries (Firebase's `oobCode`).
  case link
}

/// What a new account is created with.
public struct SignUpRequest: Equatable, Hashable, Sendable {
  /// The email address, normalized.
  public var email: String
  /// The chosen password.
  public var password: String
  /// Whether the user accepted the terms; the view model only sends `true`.
  public var consentAccepted: Bool
  /// The user's first name, when the registration form asks for it.
  public var firstName: String?
  /// The user's last name, when the registration form asks for it.
  public var lastName: String?
  /// When the user accepted the terms of service and the privacy policy, recorded with the
  /// account (seed 003's registration toggles).
  public var consentAcceptedAt: Date?

  /// A request with the given details.
  public init(
    email: String, password: String, consentAccepted: Bool,
    firstName: String? = nil, lastName: String? = nil, consentAcceptedAt: Date? = nil
  ) {
    self.email = email
    self.password = password
    self.consentAccepted = consentAccepted
    self.firstName = firstName
    self.lastName = lastName
    self.consentAcceptedAt = consentAcceptedAt
  }
}

extension SignUpRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The request with the password masked.
  public var description: String {
    "SignUpRequest(email: \(email), password: ••••, consentAccepted: \(consentAccepted))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// A mirror without the password.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "email": email, "consentAccepted": consentAccepted,
        "firstName": firstName as Any, "lastName": lastName as Any,
        "consentAcceptedAt": consentAcceptedAt as Any,
      ],
      displayStyle: .struct)
  }
}

/// How a successful signup ended.
public enum SignUpResult: Equatable, Hashable, Sendable {
  /// The account is ready and signed in (email confirmation is off).
  case signedIn(AuthSession)
  /// The account waits for its email to be confirmed; a confirmation email was sent.
  case confirmationRequired
  /// The email already had an account waiting for confirmation: the email was sent again and
  /// that account keeps the password it was created with (GoTrue's rule).
  case confirmationResentToExistingAccount
  /// The account is ready and signed in, and a confirmation email was sent: Firebase signs a
  /// new user in at once and lets the app decide what an unconfirmed user may do.
  case signedInPendingConfirmation(AuthSession)
  /// The account is ready and signed in, but its verification email could not be sent: the
  /// app says so instead of announcing an email (the user can ask for it again).
  case signedInVerificationNotSent(AuthSession)

  /// The session the signup started, if it started one.
  public var session: AuthSession? {
    switch self {
    case .signedIn(let session), .signedInPendingConfirmation(let session),
      .signedInVerificationNotSent(let session):
      session
    case .confirmationRequired, .confirmationResentToExistingAccount: nil
    }
  }
}
