/// Why a call to the authentication backend failed, as the app understands it.
///
/// Backends translate their wire errors into these cases in one place; the view model turns
/// them into display text through ``message``. No case carries user input, so no message can
/// echo a password or a code back.
public enum AuthError: Error, Equatable, Hashable, Sendable {
  /// The backend could not be reached, or the request timed out.
  case networkUnavailable
  /// Unknown email or wrong password; the two are never told apart.
  case invalidCredentials
  /// The password is right but the email address is not confirmed yet.
  case emailUnverified
  /// Too many requests or emails in a short time.
  case rateLimited
  /// The code does not match the one that was sent.
  case otpIncorrect
  /// An account with this email already exists.
  case duplicateEmail
  /// Anything the app has no specific answer for.
  case unknown
  /// The reset code is past its lifetime (24 hours).
  case otpExpired
  /// The reset code was used already; codes are single-use.
  case otpAlreadyUsed
  /// The confirmation code or link is past its lifetime or was replaced by a newer one.
  case confirmationExpired
  /// The confirmation link was followed before: the email is confirmed.
  case emailAlreadyConfirmed
  /// The backend rejected the new password as too weak.
  case weakPassword
  /// The new password is the same as the current one.
  case samePassword
  /// The stored session was revoked or expired; the user has to sign in again.
  case sessionExpired
  /// The backend answered with a server failure (HTTP 5xx).
  case serverError
  /// The reset code was refused without saying whether it was wrong or expired (GoTrue
  /// answers `otp_expired` for both).
  case otpRejected
  /// The backend offers no way for users to delete their own account.
  case accountDeletionUnavailable
  /// Too soon to ask again: the backend said after how many seconds (GoTrue's email interval).
  case retryAfter(seconds: Int)
  /// The backend refused the email address as malformed (a rule stricter than the app's, or
  /// an older app's); users read what the form's own check says.
  case emailRejected
  /// A link's token names no code the backend can spend: unknown, meant for another step, or
  /// a bare 6-digit code with no email to check it against.
  case linkInvalid
  /// The password is right, but the account signs in with a second factor too (a TOTP code),
  /// which this app does not ask for.
  case secondFactorRequired
  /// The local account store could not be written or read.
  case localStore(LocalStoreProblem)
}

/// What went wrong with a local account store, in terms a user can act on.
public enum LocalStoreProblem: String, Equatable, Hashable, Sendable, CaseIterable {
  /// The file or its disk cannot be written.
  case readOnly = "read_only"
  /// The disk is full.
  case full
  /// The file is damaged.
  case damaged
  /// Reading or writing failed for another reason.
  case unavailable
}

extension AuthError {
  /// The user-facing text for this error: the only place such text is written.
  public var message: String {
    switch self {
    case .networkUnavailable:
      "Can't reach the server. Check your connection and try again."
    case .invalidCredentials:
      "That email or password looks incorrect"
    case .emailUnverified:
      "Please confirm your email before signing in. Check your inbox for the link."
    case .rateLimited:
      "Too many attempts. Please wait a moment and try again."
    case .otpIncorrect:
      "That code is incorrect. Check the latest email and try again."
    case .duplicateEmail:
      "An account with this email already exists. Try logging in instead."
    case .unknown:
      "Something went wrong. Please try again."
    case .otpExpired:
      "This reset link has expired. Please request a new one."
    case .otpAlreadyUsed:
      "This reset link has already been used. Please request a new one if needed."
    case .confirmationExpired:
      "This confirmation link has expired. Sign in and resend it to get a new one."
    case .emailAlreadyConfirmed:
      "Email already verified"
    case .weakPassword:
      "That password is too weak. Choose a longer one with letters and numbers."
    case .samePassword:
      "Your new password must be different from your current one."
    case .sessionExpired:
      "Your session has expired. Please sign in again."
    case .serverError:
      "The server ran into a problem. Please try again in a moment."
    case .otpRejected:
      "That code is wrong or has expired. Check the latest email, or request a new code."
    case .accountDeletionUnavailable:
      "This backend cannot delete accounts from the app. Ask the project's administrator."
    case .retryAfter(let seconds):
      "For security purposes, you can only request this after \(seconds) \(seconds == 1 ? "second" : "seconds")."
    case .emailRejected:
      ValidationIssue.emailInvalid.message
    case .linkInvalid:
      "This link is invalid or has expired. Open the link from your latest email."
    case .secondFactorRequired:
      "This account also asks for a code from an authenticator app, which this app can't ask for yet."
    case .localStore(.readOnly):
      "The account store is read-only, so nothing can be saved. Check its permissions and disk."
    case .localStore(.full):
      "The disk is full, so the account store cannot save anything. Free some space."
    case .localStore(.damaged):
      "The account store is damaged. Move it aside to start a new one."
    case .localStore(.unavailable):
      "The account store could not be read or written. Try again."
    }
  }

  /// A stable snake_case name for events and machine-readable output.
  public var code: String {
    switch self {
    case .networkUnavailable: "network_unavailable"
    case .invalidCredentials: "invalid_credentials"
    case .emailUnverified: "email_unverified"
    case .rateLimited: "rate_limited"
    case .otpIncorrect: "otp_incorrect"
    case .duplicateEmail: "duplicate_email"
    case .unknown: "unknown"
    case .otpExpired: "otp_expired"
    case .otpAlreadyUsed: "otp_already_used"
    case .confirmationExpired: "confirmation_expired"
    case .emailAlreadyConfirmed: "email_already_confirmed"
    case .weakPassword: "weak_password"
    case .samePassword: "same_password"
    case .sessionExpired: "session_expired"
    case .serverError: "server_error"
    case .otpRejected: "otp_rejected"
    case .accountDeletionUnavailable: "account_deletion_unavailable"
    case .retryAfter: "retry_after"
    case .emailRejected: "email_rejected"
    case .linkInvalid: "link_invalid"
    case .secondFactorRequired: "second_factor_required"
    case .localStore(let problem): "local_store_\(problem.rawValue)"
    }
  }
}

extension AuthError: CaseIterable {
  /// Every error the app can show, in declaration order: what flow coverage counts against.
  public static var allCases: [AuthError] {
    [
      .networkUnavailable, .invalidCredentials, .emailUnverified, .rateLimited, .otpIncorrect,
      .duplicateEmail, .unknown, .otpExpired, .otpAlreadyUsed, .confirmationExpired,
      .emailAlreadyConfirmed, .weakPassword, .samePassword, .sessionExpired, .serverError,
      .otpRejected, .accountDeletionUnavailable, .retryAfter(seconds: 60), .emailRejected,
      .linkInvalid, .secondFactorRequired,
    ] + LocalStoreProblem.allCases.map(AuthError.localStore)
  }

  /// The position of the case among ``allCases``. The switch has no default, so a new case
  /// does not compile until it has a place, and a test checks ``allCases`` lists every place.
  public var ordinal: Int {
    switch self {
    case .networkUnavailable: 0
    case .invalidCredentials: 1
    case .emailUnverified: 2
    case .rateLimited: 3
    case .otpIncorrect: 4
    case .duplicateEmail: 5
    case .unknown: 6
    case .otpExpired: 7
    case .otpAlreadyUsed: 8
    case .confirmationExpired: 9
    case .emailAlreadyConfirmed: 10
    case .weakPassword: 11
    case .samePassword: 12
    case .sessionExpired: 13
    case .serverError: 14
    case .otpRejected: 15
    case .accountDeletionUnavailable: 16
    case .retryAfter: 17
    case .emailRejected: 18
    case .linkInvalid: 19
    case .secondFactorRequired: 20
    case .localStore(let problem):
      21 + (LocalStoreProblem.allCases.firstIndex(of: problem) ?? 0)
    }
  }
}
