import AuthFlow
import IdentityToolkit

/// Why a Firebase Auth request failed.
public enum FirebaseFailure: Error, Equatable, Hashable, Sendable {
  /// Identity Toolkit or Secure Token answered with Google's error body.
  case api(IdentityToolkitError)
  /// No answer came: connection refused, DNS, TLS, timeout, a redirect. For developers.
  case transport(String)
  /// An answer came that is not what Google sends. For developers.
  case malformedResponse(String)
  /// The sign-in waits for a second factor's code (`mfaPendingCredential`), which this client
  /// does not send.
  case secondFactorRequired

  /// The wire code, when Google sent one.
  public var code: IdentityToolkitErrorCode? {
    if case .api(let error) = self { error.code } else { nil }
  }
}

/// The request a Firebase failure came from; an action code means different things to a reset
/// and to an email confirmation.
public enum FirebaseOperation: Equatable, Hashable, Sendable {
  /// `accounts:signUp`, and the profile and verification calls that follow it.
  case signUp
  /// `accounts:signInWithPassword`.
  case signIn
  /// `accounts:sendOobCode` for a password reset.
  case sendPasswordReset
  /// `accounts:resetPassword`, checking a reset link's code or setting the new password.
  case resetPassword
  /// `accounts:update` applying a `verifyEmail` link's code.
  case confirmEmail
  /// `accounts:sendOobCode` for a verification email, as the signed-in user.
  case sendVerification
  /// Secure Token's `token`, or a stored session's renewal.
  case refresh
  /// `accounts:delete`.
  case deleteAccount
  /// `accounts:lookup` of the signed-in user, as `User.reload()` asks.
  case lookup
  /// `accounts:update` with a new password, as the signed-in user.
  case updatePassword

  /// Whether the request is made with the session's tokens, so that a refusal ends it.
  var usesSession: Bool {
    switch self {
    case .refresh, .sendVerification, .deleteAccount, .lookup, .updatePassword: true
    case .signUp, .signIn, .sendPasswordReset, .resetPassword, .confirmEmail: false
    }
  }
}

extension AuthError {
  /// The app's reading of a Firebase failure.
  public init(_ failure: FirebaseFailure, during operation: FirebaseOperation) {
    switch failure {
    case .transport: self = .networkUnavailable
    // Not Google's answer (an HTML page, a proxy, a cut-off body): a server problem.
    case .malformedResponse: self = .serverError
    case .secondFactorRequired: self = .secondFactorRequired
    case .api(let error): self.init(identityToolkit: error, during: operation)
    }
  }

  /// The one mapping from Firebase's error codes to ``AuthError``, as GoTrue's codes map.
  public init(identityToolkit error: IdentityToolkitError, during operation: FirebaseOperation) {
    switch error.code {
    case .emailExists:
      self = .duplicateEmail
    case .invalidLoginCredentials, .emailNotFound, .invalidPassword:
      self = .invalidCredentials
    // The view model checks the form first, so these only come when Google's rule differs:
    // an address it refuses reads as the form's own check does.
    case .invalidEmail:
      self = .emailRejected
    case .missingEmail, .missingPassword:
      self = .invalidCredentials
    case .tooManyAttempts:
      self = .rateLimited
    case .weakPassword, .passwordRequirements:
      self = .weakPassword
    // A used, malformed or (in production) expired code: Google does not say which.
    case .invalidOOBCode, .missingOOBCode:
      self = operation == .confirmEmail ? .confirmationExpired : .otpRejected
    case .expiredOOBCode:
      self = operation == .confirmEmail ? .confirmationExpired : .otpExpired
    case .invalidIDToken, .tokenExpired, .userNotFound, .invalidRefreshToken, .credentialTooOld,
      .missingIDToken, .missingRefreshToken:
      self = .sessionExpired
    // As GoTrue's `user_banned` reads (`unknown`); but a disabled user's session cannot go
    // on, so a request made with it ends it.
    case .userDisabled:
      self = operation.usesSession ? .sessionExpired : .unknown
    default:
      // `UNKNOWN` is what a body that is not Google's JSON decodes to.
      if error.status >= 500 || error.code == "UNKNOWN" {
        self = .serverError
      } else {
        self = error.status == 429 ? .rateLimited : .unknown
      }
    }
  }
}
