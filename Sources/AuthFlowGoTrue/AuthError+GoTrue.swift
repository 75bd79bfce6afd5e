import AuthFlow
import GoTrue

/// The request a GoTrue failure came from; a few codes mean different things per request.
public enum GoTrueOperation: Equatable, Hashable, Sendable {
  /// `POST /signup`.
  case signUp
  /// `POST /token?grant_type=password`.
  case signIn
  /// `POST /token?grant_type=refresh_token`, or checking a stored session.
  case refresh
  /// `POST /recover`.
  case recover
  /// `POST /verify` of a signup confirmation.
  case confirmEmail
  /// `POST /verify` of a recovery code.
  case verifyRecovery
  /// `POST /resend`.
  case resend
  /// `PUT /user` with a new password, and the `GET /reauthenticate` it may need.
  case updatePassword
  /// `POST /logout`.
  case logout
}

extension AuthError {
  /// The app's reading of a GoTrue failure: the one mapping from wire codes to ``AuthError``,
  /// shared by every GoTrue-speaking backend.
  ///
  /// With `fromLink`, the code was a link's token hash: a token that names no code is
  /// ``linkInvalid`` (open the latest email's link), never an incorrect code.
  public init(_ failure: GoTrueFailure, during operation: GoTrueOperation, fromLink: Bool = false) {
    switch failure {
    case .transport:
      self = .networkUnavailable
    case .malformedResponse:
      self = .unknown
    case .api(let error):
      if error.code == .otpExpired, error.otpReasonUnknown, operation != .confirmEmail {
        // GoTrue says "Email link is invalid or has expired" for all three.
        self = fromLink ? .linkInvalid : .otpRejected
        return
      }
      if error.code == .otpInvalid, fromLink {
        self = .linkInvalid
        return
      }
      self = Self(code: error.code, status: error.status, message: error.message, operation)
    }
  }

  /// Whether `message` is one of GoTrue's refusals of an address (`validateEmail`): "An email
  /// address is too long", "Unable to validate email address: invalid format"; a
  /// `validation_failed` of anything else ("missing email or phone") is not.
  static func refusesEmailAddress(_ message: String) -> Bool {
    let message = message.lowercased()
    return message.hasPrefix("an email address is")
      || message.hasPrefix("unable to validate email address")
  }

  private init(code: GoTrueErrorCode?, status: Int, message: String, _ operation: GoTrueOperation) {
    switch code {
    case .invalidCredentials?:
      self = .invalidCredentials
    case .emailAddressInvalid?:
      self = .emailRejected
    case .validationFailed? where Self.refusesEmailAddress(message):
      self = .emailRejected
    case .emailNotConfirmed?:
      self = .emailUnverified
    case .userAlreadyExists?, .emailExists?:
      self = .duplicateEmail
    case .overRequestRateLimit?, .overEmailSendRateLimit?, "over_sms_send_rate_limit"?:
      self = Self.secondsToWait(in: message).map { .retryAfter(seconds: $0) } ?? .rateLimited
    case .otpExpired?:
      self = operation == .confirmEmail ? .confirmationExpired : .otpExpired
    case .otpAlreadyUsed?:
      self = operation == .confirmEmail ? .emailAlreadyConfirmed : .otpAlreadyUsed
    case .otpInvalid?, .reauthenticationNotValid?:
      self = .otpIncorrect
    case .weakPassword?:
      self = .weakPassword
    case .samePassword?:
      self = .samePassword
    case .sessionNotFound?, .sessionExpired?, .refreshTokenNotFound?, .refreshTokenAlreadyUsed?,
      .badJWT?, .noAuthorization?:
      self = .sessionExpired
    case .unexpectedFailure?:
      self = .serverError
    case .storeReadOnly?:
      self = .localStore(.readOnly)
    case .storeFull?:
      self = .localStore(.full)
    case .storeDamaged?:
      self = .localStore(.damaged)
    case .storeUnavailable?:
      self = .localStore(.unavailable)
    case .some:
      self = status >= 500 ? .serverError : .unknown
    case nil:
      self = Self(status: status, message: message, operation)
    }
  }

  /// Servers older than error codes: go by status and the OAuth-style message.
  private init(status: Int, message: String, _ operation: GoTrueOperation) {
    let message = message.lowercased()
    switch status {
    case 429:
      self = .rateLimited
    case 500...599:
      self = .serverError
    case 400 where operation == .signIn && message.contains("invalid login credentials"):
      self = .invalidCredentials
    case 400 where operation == .signIn && message.contains("email not confirmed"):
      self = .emailUnverified
    case 400...403 where operation == .refresh || operation == .logout:
      self = .sessionExpired
    case 403 where operation == .verifyRecovery:
      self = .otpExpired
    case 403 where operation == .confirmEmail:
      self = .confirmationExpired
    default:
      self = .unknown
    }
  }

  /// The N of GoTrue's "…you can only request this after N seconds." (1 to a day), if said.
  static func secondsToWait(in message: String) -> Int? {
    let words = message.split(separator: " ")
    guard let index = words.firstIndex(of: "after"), index + 2 < words.count,
      words[index + 2].hasPrefix("second"), let seconds = Int(words[index + 1]),
      (1...86_400).contains(seconds)
    else { return nil }
    return seconds
  }
}
