/// A GoTrue `error_code` as sent on the wire: an open set, so codes a newer server adds decode
/// as themselves instead of failing.
public struct GoTrueErrorCode: RawRepresentable, Hashable, Sendable, Codable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The code as sent, e.g. `invalid_credentials`.
  public var rawValue: String

  /// The code `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The code spelled by the literal.
  public init(stringLiteral value: String) { self.rawValue = value }

  /// The code as sent.
  public var description: String { rawValue }

  /// Decodes the code from a plain JSON string.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes the code as a plain JSON string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

extension GoTrueErrorCode {
  /// Wrong password, unknown email, or no password set.
  public static let invalidCredentials: Self = "invalid_credentials"
  /// The password is right but the email is not confirmed.
  public static let emailNotConfirmed: Self = "email_not_confirmed"
  /// Signup with an already-confirmed email while autoconfirm is on.
  public static let userAlreadyExists: Self = "user_already_exists"
  /// The email belongs to another user (email change, admin create).
  public static let emailExists: Self = "email_exists"
  /// The request-rate limiter said no.
  public static let overRequestRateLimit: Self = "over_request_rate_limit"
  /// An email was sent to this address too recently, or the hourly email budget is spent.
  public static let overEmailSendRateLimit: Self = "over_email_send_rate_limit"
  /// A code was texted to this user too recently, or the hourly SMS budget is spent.
  public static let overSMSSendRateLimit: Self = "over_sms_send_rate_limit"
  /// The code is wrong or expired (GoTrue does not tell the two apart).
  public static let otpExpired: Self = "otp_expired"
  /// The password is too short, lacks required characters, or is known to be leaked.
  public static let weakPassword: Self = "weak_password"
  /// The new password equals the current one.
  public static let samePassword: Self = "same_password"
  /// Missing or malformed fields.
  public static let validationFailed: Self = "validation_failed"
  /// The session behind the JWT no longer exists.
  public static let sessionNotFound: Self = "session_not_found"
  /// The session reached its time box or was revoked.
  public static let sessionExpired: Self = "session_expired"
  /// The refresh token is unknown.
  public static let refreshTokenNotFound: Self = "refresh_token_not_found"
  /// A rotated refresh token was used again; the whole family is revoked.
  public static let refreshTokenAlreadyUsed: Self = "refresh_token_already_used"
  /// The JWT is invalid or expired.
  public static let badJWT: Self = "bad_jwt"
  /// The JWT was issued for another audience (another surface's token).
  public static let unexpectedAudience: Self = "unexpected_audience"
  /// The Authorization header is missing.
  public static let noAuthorization: Self = "no_authorization"
  /// Signups are turned off.
  public static let signupDisabled: Self = "signup_disabled"
  /// The email provider is turned off.
  public static let emailProviderDisabled: Self = "email_provider_disabled"
  /// The email address was rejected by the mail validator.
  public static let emailAddressInvalid: Self = "email_address_invalid"
  /// The user is banned.
  public static let userBanned: Self = "user_banned"
  /// The body was not JSON.
  public static let badJSON: Self = "bad_json"
  /// The server failed without a more specific code.
  public static let unexpectedFailure: Self = "unexpected_failure"
  /// The bearer token is valid but not an admin's.
  public static let notAdmin: Self = "not_admin"
  /// No user has that id (admin API), or the token's user is gone.
  public static let userNotFound: Self = "user_not_found"
  /// `POST /otp` for an unknown email with `create_user` false.
  public static let otpDisabled: Self = "otp_disabled"
  /// A signup with neither email nor phone, with anonymous sign-ins off.
  public static let anonymousProviderDisabled: Self = "anonymous_provider_disabled"
  /// The phone provider is off.
  public static let phoneProviderDisabled: Self = "phone_provider_disabled"
  /// The request body is over the limit.
  public static let requestEntityTooLarge: Self = "request_entity_too_large"
  /// SAML single sign-on is off.
  public static let samlProviderDisabled: Self = "saml_provider_disabled"
  /// An OAuth callback without a flow begun (no `state`).
  public static let badOAuthCallback: Self = "bad_oauth_callback"
  /// Another user has the phone number.
  public static let phoneExists: Self = "phone_exists"
  /// No SSO identity provider has that id.
  public static let ssoProviderNotFound: Self = "sso_provider_not_found"
  /// Linking identities by hand is off.
  public static let manualLinkingDisabled: Self = "manual_linking_disabled"
  /// Passkeys are off.
  public static let passkeyDisabled: Self = "passkey_disabled"
  /// A feature such as the OAuth server is off.
  public static let featureDisabled: Self = "feature_disabled"
  /// Enrolling a TOTP factor is off.
  public static let mfaTOTPEnrollNotEnabled: Self = "mfa_totp_enroll_not_enabled"
  /// Enrolling a phone factor is off.
  public static let mfaPhoneEnrollNotEnabled: Self = "mfa_phone_enroll_not_enabled"
  /// Enrolling a WebAuthn factor is off.
  public static let mfaWebAuthnEnrollNotEnabled: Self = "mfa_webauthn_enroll_not_enabled"
  /// No MFA factor has that id.
  public static let mfaFactorNotFound: Self = "mfa_factor_not_found"
  /// No PKCE flow matches the auth code.
  public static let flowStateNotFound: Self = "flow_state_not_found"
  /// An OAuth or OIDC provider that is not enabled.
  public static let providerDisabled: Self = "provider_disabled"
  /// Web3 sign-in (`grant_type=web3`), or its chain, is off.
  public static let web3ProviderDisabled: Self = "web3_provider_disabled"
  /// A Web3 sign-in names a chain other than `solana` and `ethereum`.
  public static let web3UnsupportedChain: Self = "web3_unsupported_chain"

  /// The code is well formed but matches no live code for this email (embedded engine only:
  /// GoTrue answers `otp_expired` for this too).
  public static let otpInvalid: Self = "otp_invalid"
  /// The code was used already (embedded engine only: GoTrue answers `otp_expired`).
  public static let otpAlreadyUsed: Self = "otp_already_used"
  /// The engine's store cannot be written: the file or its disk is read-only (engine only).
  public static let storeReadOnly: Self = "store_read_only"
  /// The engine's store cannot grow: its disk is full (engine only).
  public static let storeFull: Self = "store_full"
  /// The engine's store is damaged (engine only).
  public static let storeDamaged: Self = "store_damaged"
  /// The engine's store could not be read or written for another reason (engine only).
  public static let storeUnavailable: Self = "store_unavailable"
}

extension GoTrueErrorCode {
  /// The user already has a factor with that friendly name.
  public static let mfaFactorNameConflict: Self = "mfa_factor_name_conflict"
  /// The user has as many factors (or verified factors) as the server allows.
  public static let tooManyEnrolledMFAFactors: Self = "too_many_enrolled_mfa_factors"
  /// The session must be aal2 for this (enrolling beside, or removing, a verified factor;
  /// changing the email or password of a user with one).
  public static let insufficientAAL: Self = "insufficient_aal"
  /// The challenge was made from another address, or was used already.
  public static let mfaIPAddressMismatch: Self = "mfa_ip_address_mismatch"
  /// The challenge is older than the server's challenge lifetime.
  public static let mfaChallengeExpired: Self = "mfa_challenge_expired"
  /// The code is not the factor's code now.
  public static let mfaVerificationFailed: Self = "mfa_verification_failed"
  /// Challenging and verifying TOTP factors is off.
  public static let mfaTOTPVerifyNotEnabled: Self = "mfa_totp_verify_not_enabled"
}
