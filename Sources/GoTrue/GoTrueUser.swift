#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A user as GoTrue describes one (`models/user.go`): decoded leniently by clients, encoded by
/// servers with GoTrue's keys, order and omissions.
public struct GoTrueUser: Equatable, Hashable, Sendable, Codable {
  /// The user's UUID.
  public var id: String
  /// The audience, `authenticated` for signed-up users.
  public var aud: String?
  /// The Postgres role, `authenticated` for signed-up users.
  public var role: String?
  /// The email address.
  public var email: String?
  /// When the email was confirmed.
  public var emailConfirmedAt: Date?
  /// When an admin invited the user.
  public var invitedAt: Date?
  /// The phone number; GoTrue always sends the key, empty when there is none.
  public var phone: String?
  /// When the phone number was confirmed.
  public var phoneConfirmedAt: Date?
  /// When the last confirmation email was sent.
  public var confirmationSentAt: Date?
  /// When the user was confirmed (GoTrue's generated column).
  public var confirmedAt: Date?
  /// When the last recovery email was sent.
  public var recoverySentAt: Date?
  /// An email change waiting for its confirmation.
  public var newEmail: String?
  /// When the email-change confirmation was sent.
  public var emailChangeSentAt: Date?
  /// A phone change waiting for its code (GoTrue's `new_phone`).
  public var newPhone: String?
  /// When the phone-change code was sent.
  public var phoneChangeSentAt: Date?
  /// When the last reauthentication nonce was sent.
  public var reauthenticationSentAt: Date?
  /// When the user last signed in.
  public var lastSignInAt: Date?
  /// What the server keeps about the user (`provider`, `providers`); only admins change it.
  public var appMetadata: [String: JSONValue]
  /// The metadata the user gave at signup (`data`), e.g. `first_name`.
  public var userMetadata: [String: JSONValue]
  /// The ways the user can sign in; empty in the fake user a repeated signup returns.
  public var identities: [GoTrueIdentity]?
  /// When the user was created.
  public var createdAt: Date?
  /// When the user last changed.
  public var updatedAt: Date?
  /// Until when the user is banned.
  public var bannedUntil: Date?
  /// When the user was soft-deleted.
  public var deletedAt: Date?
  /// Whether the user signed in anonymously.
  public var isAnonymous: Bool
  /// The user's multi-factor authentication factors; GoTrue leaves the key out when there are
  /// none.
  public var factors: [GoTrueFactor]?

  /// A user with the given fields.
  public init(
    id: String, aud: String? = "authenticated", role: String? = "authenticated",
    email: String?, emailConfirmedAt: Date? = nil, invitedAt: Date? = nil, phone: String? = "",
    phoneConfirmedAt: Date? = nil, confirmationSentAt: Date? = nil, confirmedAt: Date? = nil,
    recoverySentAt: Date? = nil,
    newEmail: String? = nil, emailChangeSentAt: Date? = nil, newPhone: String? = nil,
    phoneChangeSentAt: Date? = nil, reauthenticationSentAt: Date? = nil, lastSignInAt: Date? = nil,
    appMetadata: [String: JSONValue] = [:], userMetadata: [String: JSONValue] = [:],
    identities: [GoTrueIdentity]? = nil, createdAt: Date? = nil, updatedAt: Date? = nil,
    bannedUntil: Date? = nil, deletedAt: Date? = nil, isAnonymous: Bool = false,
    factors: [GoTrueFactor]? = nil
  ) {
    self.id = id
    self.aud = aud
    self.role = role
    self.email = email
    self.emailConfirmedAt = emailConfirmedAt
    self.invitedAt = invitedAt
    self.phone = phone
    self.phoneConfirmedAt = phoneConfirmedAt
    self.confirmationSentAt = confirmationSentAt
    self.confirmedAt = confirmedAt
    self.recoverySentAt = recoverySentAt
    self.newEmail = newEmail
    self.emailChangeSentAt = emailChangeSentAt
    self.newPhone = newPhone
    self.phoneChangeSentAt = phoneChangeSentAt
    self.reauthenticationSentAt = reauthenticationSentAt
    self.lastSignInAt = lastSignInAt
    self.appMetadata = appMetadata
    self.userMetadata = userMetadata
    self.identities = identities
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.bannedUntil = bannedUntil
    self.deletedAt = deletedAt
    self.isAnonymous = isAnonymous
    self.factors = factors
  }

  enum CodingKeys: String, CodingKey {
    case id, aud, role, email, phone, identities, factors
    case emailConfirmedAt = "email_confirmed_at"
    case phoneConfirmedAt = "phone_confirmed_at"
    case invitedAt = "invited_at"
    case reauthenticationSentAt = "reauthentication_sent_at"
    case confirmationSentAt = "confirmation_sent_at"
    case confirmedAt = "confirmed_at"
    case recoverySentAt = "recovery_sent_at"
    case newEmail = "new_email"
    case emailChangeSentAt = "email_change_sent_at"
    case newPhone = "new_phone"
    case phoneChangeSentAt = "phone_change_sent_at"
    case lastSignInAt = "last_sign_in_at"
    case appMetadata = "app_metadata"
    case userMetadata = "user_metadata"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case bannedUntil = "banned_until"
    case deletedAt = "deleted_at"
    case isAnonymous = "is_anonymous"
  }

  /// Decodes a user, tolerating missing and null optional fields.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(String.self, forKey: .id)
    aud = try c.decodeIfPresent(String.self, forKey: .aud)
    role = try c.decodeIfPresent(String.self, forKey: .role)
    email = try c.decodeIfPresent(String.self, forKey: .email)
    emailConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .emailConfirmedAt)
    invitedAt = try c.decodeIfPresent(Date.self, forKey: .invitedAt)
    phone = try c.decodeIfPresent(String.self, forKey: .phone)
    phoneConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .phoneConfirmedAt)
    confirmationSentAt = try c.decodeIfPresent(Date.self, forKey: .confirmationSentAt)
    confirmedAt = try c.decodeIfPresent(Date.self, forKey: .confirmedAt)
    recoverySentAt = try c.decodeIfPresent(Date.self, forKey: .recoverySentAt)
    newEmail = try c.decodeIfPresent(String.self, forKey: .newEmail)
    emailChangeSentAt = try c.decodeIfPresent(Date.self, forKey: .emailChangeSentAt)
    newPhone = try c.decodeIfPresent(String.self, forKey: .newPhone)
    phoneChangeSentAt = try c.decodeIfPresent(Date.self, forKey: .phoneChangeSentAt)
    reauthenticationSentAt = try c.decodeIfPresent(Date.self, forKey: .reauthenticationSentAt)
    lastSignInAt = try c.decodeIfPresent(Date.self, forKey: .lastSignInAt)
    appMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .appMetadata) ?? [:]
    userMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .userMetadata) ?? [:]
    identities = try c.decodeIfPresent([GoTrueIdentity].self, forKey: .identities)
    createdAt = try c.decodeIfPresent(Date.self, forKey: .createdAt)
    updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
    bannedUntil = try c.decodeIfPresent(Date.self, forKey: .bannedUntil)
    deletedAt = try c.decodeIfPresent(Date.self, forKey: .deletedAt)
    isAnonymous = try c.decodeIfPresent(Bool.self, forKey: .isAnonymous) ?? false
    factors = try c.decodeIfPresent([GoTrueFactor].self, forKey: .factors)
  }

  /// Encodes the user as GoTrue does: GoTrue's keys, the always-present ones even
  /// when empty (`email`, `phone`, `identities`), the optional times and `factors` only when
  /// set.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(aud ?? "", forKey: .aud)
    try c.encode(role ?? "", forKey: .role)
    try c.encode(email ?? "", forKey: .email)
    try c.encodeIfPresent(emailConfirmedAt, forKey: .emailConfirmedAt)
    try c.encodeIfPresent(invitedAt, forKey: .invitedAt)
    try c.encode(phone ?? "", forKey: .phone)
    try c.encodeIfPresent(phoneConfirmedAt, forKey: .phoneConfirmedAt)
    try c.encodeIfPresent(confirmationSentAt, forKey: .confirmationSentAt)
    try c.encodeIfPresent(confirmedAt, forKey: .confirmedAt)
    try c.encodeIfPresent(recoverySentAt, forKey: .recoverySentAt)
    if let newEmail, !newEmail.isEmpty { try c.encode(newEmail, forKey: .newEmail) }
    try c.encodeIfPresent(emailChangeSentAt, forKey: .emailChangeSentAt)
    if let newPhone, !newPhone.isEmpty { try c.encode(newPhone, forKey: .newPhone) }
    try c.encodeIfPresent(phoneChangeSentAt, forKey: .phoneChangeSentAt)
    try c.encodeIfPresent(reauthenticationSentAt, forKey: .reauthenticationSentAt)
    try c.encodeIfPresent(lastSignInAt, forKey: .lastSignInAt)
    try c.encode(appMetadata, forKey: .appMetadata)
    try c.encode(userMetadata, forKey: .userMetadata)
    if let factors, !factors.isEmpty { try c.encode(factors, forKey: .factors) }
    try c.encode(identities, forKey: .identities)
    try c.encode(createdAt ?? Date(timeIntervalSince1970: 0), forKey: .createdAt)
    try c.encode(updatedAt ?? createdAt ?? Date(timeIntervalSince1970: 0), forKey: .updatedAt)
    try c.encodeIfPresent(bannedUntil, forKey: .bannedUntil)
    try c.encodeIfPresent(deletedAt, forKey: .deletedAt)
    try c.encode(isAnonymous, forKey: .isAnonymous)
  }
}

/// One way a user signs in (`models/identity.go`); email users have one with provider `email`.
public struct GoTrueIdentity: Equatable, Hashable, Sendable, Codable {
  /// The identity's row ID.
  public var identityId: String?
  /// The provider's ID for the user; the user's UUID for email identities.
  public var id: String?
  /// The user the identity belongs to.
  public var userId: String?
  /// What the provider says about the user: `sub`, `email`, `email_verified`, `phone_verified`.
  public var identityData: [String: JSONValue]?
  /// The provider, `email` here.
  public var provider: String
  /// When the user last signed in with this identity.
  public var lastSignInAt: Date?
  /// When the identity was made.
  public var createdAt: Date?
  /// When the identity last changed.
  public var updatedAt: Date?
  /// The identity's email.
  public var email: String?

  /// An identity of `provider` for `userId`.
  public init(
    identityId: String?, id: String? = nil, userId: String?,
    identityData: [String: JSONValue]? = nil, provider: String, lastSignInAt: Date? = nil,
    createdAt: Date? = nil, updatedAt: Date? = nil, email: String? = nil
  ) {
    self.identityId = identityId
    self.id = id
    self.userId = userId
    self.identityData = identityData
    self.provider = provider
    self.lastSignInAt = lastSignInAt
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.email = email
  }

  enum CodingKeys: String, CodingKey {
    case id, provider, email
    case identityId = "identity_id"
    case userId = "user_id"
    case identityData = "identity_data"
    case lastSignInAt = "last_sign_in_at"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }

  /// Encodes the identity with GoTrue's keys and omissions.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeIfPresent(identityId, forKey: .identityId)
    try c.encodeIfPresent(id, forKey: .id)
    try c.encodeIfPresent(userId, forKey: .userId)
    try c.encodeIfPresent(identityData, forKey: .identityData)
    try c.encode(provider, forKey: .provider)
    try c.encodeIfPresent(lastSignInAt, forKey: .lastSignInAt)
    try c.encodeIfPresent(createdAt, forKey: .createdAt)
    try c.encodeIfPresent(updatedAt, forKey: .updatedAt)
    try c.encodeIfPresent(email, forKey: .email)
  }
}
