#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One way a user signs in, in `providerUserInfo`.
public struct IdentityToolkitProviderInfo: Codable, Equatable, Hashable, Sendable {
  /// `password` for email and password, `phone` for a phone number.
  public var providerId: String
  /// The phone number (the `phone` entry's).
  public var phoneNumber: String?
  /// The email.
  public var email: String?
  /// The provider's id for the user (the email, for `password`).
  public var federatedId: String?
  /// The raw id (the email, for `password`; the number, for `phone`).
  public var rawId: String?
  /// The display name.
  public var displayName: String?
  /// The photo URL.
  public var photoUrl: String?

  /// An entry with the given parts.
  public init(
    providerId: String, phoneNumber: String? = nil, email: String?, federatedId: String?,
    rawId: String?, displayName: String? = nil, photoUrl: String? = nil
  ) {
    self.providerId = providerId
    self.phoneNumber = phoneNumber
    self.email = email
    self.federatedId = federatedId
    self.rawId = rawId
    self.displayName = displayName
    self.photoUrl = photoUrl
  }
}

/// A user as `accounts:lookup` and `accounts:batchGet` describe one.
public struct IdentityToolkitUser: Codable, Equatable, Hashable, Sendable {
  /// The user's id.
  public var localId: String
  /// The email.
  public var email: String?
  /// Whether the email is verified.
  public var emailVerified: Bool?
  /// The display name.
  public var displayName: String?
  /// The photo URL.
  public var photoUrl: String?
  /// The phone number, E.164.
  public var phoneNumber: String?
  /// The password hash, as the emulator shows it (never the password).
  public var passwordHash: String?
  /// The hash's salt (base64), in an export to an admin.
  public var salt: String?
  /// When the password last changed, in Unix milliseconds.
  public var passwordUpdatedAt: Double?
  /// Tokens issued before this time (Unix seconds, a string) are refused.
  public var validSince: String?
  /// Whether the account is disabled.
  public var disabled: Bool?
  /// When the account was made, in Unix milliseconds (a string).
  public var createdAt: String?
  /// When the user last signed in, in Unix milliseconds (a string).
  public var lastLoginAt: String?
  /// When the user's token was last refreshed (RFC 3339).
  public var lastRefreshAt: String?
  /// The custom claims, as a JSON text.
  public var customAttributes: String?
  /// The account's first email, once it changed.
  public var initialEmail: String?
  /// Whether the user signs in by email link (present only when so).
  public var emailLinkSignin: Bool?
  /// Whether the user was made or signed in by a custom token (present only when so).
  public var customAuth: Bool?
  /// The ways the user signs in.
  public var providerUserInfo: [IdentityToolkitProviderInfo]?
  /// The user's second factors (verified TOTP factors here).
  public var mfaInfo: [IdentityToolkitMFAEnrollment]?

  /// A user with the given parts.
  public init(
    localId: String, email: String?, emailVerified: Bool?, displayName: String? = nil,
    photoUrl: String? = nil, phoneNumber: String? = nil, passwordHash: String? = nil,
    salt: String? = nil,
    passwordUpdatedAt: Double? = nil, validSince: String? = nil, disabled: Bool? = nil,
    createdAt: String? = nil,
    lastLoginAt: String? = nil, lastRefreshAt: String? = nil, customAttributes: String? = nil,
    initialEmail: String? = nil, emailLinkSignin: Bool? = nil, customAuth: Bool? = nil,
    providerUserInfo: [IdentityToolkitProviderInfo]? = nil,
    mfaInfo: [IdentityToolkitMFAEnrollment]? = nil
  ) {
    self.localId = localId
    self.email = email
    self.emailVerified = emailVerified
    self.displayName = displayName
    self.photoUrl = photoUrl
    self.phoneNumber = phoneNumber
    self.passwordHash = passwordHash
    self.salt = salt
    self.passwordUpdatedAt = passwordUpdatedAt
    self.validSince = validSince
    self.disabled = disabled
    self.createdAt = createdAt
    self.lastLoginAt = lastLoginAt
    self.lastRefreshAt = lastRefreshAt
    self.customAttributes = customAttributes
    self.initialEmail = initialEmail
    self.emailLinkSignin = emailLinkSignin
    self.customAuth = customAuth
    self.providerUserInfo = providerUserInfo
    self.mfaInfo = mfaInfo
  }
}

/// A second factor as Identity Platform lists it (`GoogleCloudIdentitytoolkitV1MfaEnrollment`):
/// a TOTP factor has an empty `totpInfo`.
public struct IdentityToolkitMFAEnrollment: Codable, Equatable, Hashable, Sendable {
  /// The factor's id.
  public var mfaEnrollmentId: String
  /// Its name, when it has one.
  public var displayName: String?
  /// When it was enrolled (RFC 3339).
  public var enrolledAt: String?
  /// Present (and empty) for a TOTP factor.
  public var totpInfo: TOTPInfo?

  /// What a TOTP factor tells of itself: nothing.
  public struct TOTPInfo: Codable, Equatable, Hashable, Sendable {
    /// The empty object.
    public init() {}
  }

  /// A TOTP factor.
  public init(mfaEnrollmentId: String, displayName: String?, enrolledAt: String?) {
    self.mfaEnrollmentId = mfaEnrollmentId
    self.displayName = displayName
    self.enrolledAt = enrolledAt
    totpInfo = TOTPInfo()
  }
}
