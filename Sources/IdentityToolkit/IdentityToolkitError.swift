#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An Identity Toolkit error message code as sent on the wire (`EMAIL_EXISTS`): an open set,
/// so codes a newer server adds decode as themselves.
public struct IdentityToolkitErrorCode: RawRepresentable, Hashable, Sendable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The code as sent.
  public var rawValue: String

  /// The code `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The code spelled by the literal.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// The code as sent.
  public var description: String { rawValue }
}

extension IdentityToolkitErrorCode {
  /// The email has an account already.
  public static let emailExists: Self = "EMAIL_EXISTS"
  /// No account has the email (sign-in without email privacy, password reset).
  public static let emailNotFound: Self = "EMAIL_NOT_FOUND"
  /// The password is wrong.
  public static let invalidPassword: Self = "INVALID_PASSWORD"
  /// The email or the password is wrong (projects with email-enumeration protection).
  public static let invalidLoginCredentials: Self = "INVALID_LOGIN_CREDENTIALS"
  /// The password is too short (`WEAK_PASSWORD : Password should be at least 6 characters`).
  public static let weakPassword: Self = "WEAK_PASSWORD"
  /// No password was given.
  public static let missingPassword: Self = "MISSING_PASSWORD"
  /// No email was given.
  public static let missingEmail: Self = "MISSING_EMAIL"
  /// The email is not an address.
  public static let invalidEmail: Self = "INVALID_EMAIL"
  /// The account is disabled.
  public static let userDisabled: Self = "USER_DISABLED"
  /// Too many requests; try later.
  public static let tooManyAttempts: Self = "TOO_MANY_ATTEMPTS_TRY_LATER"
  /// The ID token cannot be read.
  public static let invalidIDToken: Self = "INVALID_ID_TOKEN"
  /// The ID token was issued before the account's tokens were revoked.
  public static let tokenExpired: Self = "TOKEN_EXPIRED"
  /// The account is gone.
  public static let userNotFound: Self = "USER_NOT_FOUND"
  /// The refresh token cannot be used.
  public static let invalidRefreshToken: Self = "INVALID_REFRESH_TOKEN"
  /// `grant_type` is missing.
  public static let missingGrantType: Self = "MISSING_GRANT_TYPE"
  /// `grant_type` is not `refresh_token`.
  public static let invalidGrantType: Self = "INVALID_GRANT_TYPE"
  /// `refresh_token` is missing.
  public static let missingRefreshToken: Self = "MISSING_REFRESH_TOKEN"
  /// The out-of-band code matches nothing (or was used).
  public static let invalidOOBCode: Self = "INVALID_OOB_CODE"
  /// The out-of-band code has expired.
  public static let expiredOOBCode: Self = "EXPIRED_OOB_CODE"
  /// No out-of-band code was given.
  public static let missingOOBCode: Self = "MISSING_OOB_CODE"
  /// `requestType` is missing.
  public static let missingRequestType: Self = "MISSING_REQ_TYPE"
  /// No ID token was given.
  public static let missingIDToken: Self = "MISSING_ID_TOKEN"
  /// A session cookie's life outside 5 minutes to 2 weeks.
  public static let invalidDuration: Self = "INVALID_DURATION"
  /// No `localId` was given to an admin call.
  public static let missingLocalID: Self = "MISSING_LOCAL_ID"
  /// The caller may not do this.
  public static let insufficientPermission: Self = "INSUFFICIENT_PERMISSION"
  /// The request asks for nothing this operation does.
  public static let invalidRequestType: Self = "INVALID_REQ_TYPE"
  /// The sign-in method is off.
  public static let operationNotAllowed: Self = "OPERATION_NOT_ALLOWED"
  /// A new user's `localId` is taken.
  public static let duplicateLocalID: Self = "DUPLICATE_LOCAL_ID"
  /// A sensitive change needs a recent sign-in.
  public static let credentialTooOld: Self = "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"
  /// The request has a parameter the caller may not send.
  public static let unexpectedParameter: Self = "UNEXPECTED_PARAMETER"
  /// Custom claims over 1000 characters, or a profile that would not fit in an ID token.
  public static let claimsTooLarge: Self = "CLAIMS_TOO_LARGE"
  /// Custom claims that are not a JSON object.
  public static let invalidClaims: Self = "INVALID_CLAIMS"
  /// Custom claims that name a claim an ID token reserves (`FORBIDDEN_CLAIM : sub`).
  public static let forbiddenClaim: Self = "FORBIDDEN_CLAIM"
  /// A custom token that cannot be read, or (here) that came from beyond this machine.
  public static let invalidCustomToken: Self = "INVALID_CUSTOM_TOKEN"
  /// `signInWithCustomToken` without a token.
  public static let missingCustomToken: Self = "MISSING_CUSTOM_TOKEN"
  /// A custom token with neither `uid` nor `user_id`.
  public static let missingIdentifier: Self = "MISSING_IDENTIFIER"
  /// A phone number that does not start with `+` (`INVALID_PHONE_NUMBER : Invalid format.`).
  public static let invalidPhoneNumber: Self = "INVALID_PHONE_NUMBER"
  /// The API key is missing or wrong (a 403 with Google's own message).
  public static let missingAPIKey: Self = "API_KEY_INVALID"
}

/// An error answer from Identity Toolkit or Secure Token: `{"error":{"code":400,"message":
/// "EMAIL_EXISTS","errors":[…]}}`, where a message may carry a detail after ` : `.
public struct IdentityToolkitError: Error, Equatable, Hashable, Sendable {
  /// The HTTP status.
  public var status: Int
  /// The message's code part, e.g. `WEAK_PASSWORD`.
  public var code: IdentityToolkitErrorCode
  /// The part after ` : `, when there is one.
  public var detail: String?
  /// Google's `status` word (`INVALID_ARGUMENT`, `PERMISSION_DENIED`), when sent.
  public var statusName: String?

  /// An error with the given parts.
  public init(
    status: Int = 400, code: IdentityToolkitErrorCode, detail: String? = nil,
    statusName: String? = nil
  ) {
    self.status = status
    self.code = code
    self.detail = detail
    self.statusName = statusName
  }

  /// The message as sent: the code, then ` : ` and the detail if any.
  public var message: String {
    detail.map { "\(code.rawValue) : \($0)" } ?? code.rawValue
  }

  /// The error of a message such as `WEAK_PASSWORD : Password should be at least 6 characters`.
  public init(status: Int, message: String, statusName: String? = nil) {
    self.status = status
    self.statusName = statusName
    if let separator = message.firstRange(of: " : ") {
      code = IdentityToolkitErrorCode(rawValue: String(message[..<separator.lowerBound]))
      detail = String(message[separator.upperBound...])
    } else {
      code = IdentityToolkitErrorCode(rawValue: message)
      detail = nil
    }
  }
}

/// Google's error bodies, both ways: read leniently by clients, written by servers.
public enum IdentityToolkitErrorBody {
  /// Reads an error answer; a body that is not Google's JSON still gives the status, with the
  /// code `UNKNOWN`.
  public static func decode(status: Int, body: Data) -> IdentityToolkitError {
    guard let envelope = try? JSONDecoder().decode(Envelope.self, from: body) else {
      return IdentityToolkitError(status: status, code: "UNKNOWN")
    }
    return IdentityToolkitError(
      status: status, message: envelope.error.message, statusName: envelope.error.status)
  }

  /// `error` as the Auth emulator writes it: `code`, `message`, one `errors` item with reason
  /// `invalid` (or the reason given) in domain `global`, and `status` when the error has one.
  public static func encode(_ error: IdentityToolkitError, reason: String = "invalid") -> [UInt8] {
    let envelope = Envelope(
      error: Envelope.Body(
        code: error.status, message: error.message,
        errors: [Envelope.Item(message: error.message, reason: reason, domain: "global")],
        status: error.statusName))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(envelope)).map(Array.init) ?? []
  }

  private struct Envelope: Codable {
    var error: Body

    struct Body: Codable {
      var code: Int
      var message: String
      var errors: [Item]?
      var status: String?
    }

    struct Item: Codable {
      var message: String
      var reason: String?
      var domain: String?
    }
  }
}
