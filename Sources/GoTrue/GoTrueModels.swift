#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A user as GoTrue describes one (`models/user.go`), decoded leniently.
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
  /// When the last confirmation email was sent.
  public var confirmationSentAt: Date?
  /// When the last recovery email was sent.
  public var recoverySentAt: Date?
  /// When the user last signed in.
  public var lastSignInAt: Date?
  /// The metadata the user gave at signup (`data`), e.g. `first_name`.
  public var userMetadata: [String: JSONValue]
  /// The ways the user can sign in; empty in the fake user a repeated signup returns.
  public var identities: [GoTrueIdentity]?
  /// When the user was created.
  public var createdAt: Date?
  /// When the user last changed.
  public var updatedAt: Date?

  /// A user with the given fields.
  public init(
    id: String, aud: String? = "authenticated", role: String? = "authenticated",
    email: String?, emailConfirmedAt: Date? = nil, confirmationSentAt: Date? = nil,
    recoverySentAt: Date? = nil, lastSignInAt: Date? = nil,
    userMetadata: [String: JSONValue] = [:], identities: [GoTrueIdentity]? = nil,
    createdAt: Date? = nil, updatedAt: Date? = nil
  ) {
    self.id = id
    self.aud = aud
    self.role = role
    self.email = email
    self.emailConfirmedAt = emailConfirmedAt
    self.confirmationSentAt = confirmationSentAt
    self.recoverySentAt = recoverySentAt
    self.lastSignInAt = lastSignInAt
    self.userMetadata = userMetadata
    self.identities = identities
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }

  enum CodingKeys: String, CodingKey {
    case id, aud, role, email, identities
    case emailConfirmedAt = "email_confirmed_at"
    case confirmationSentAt = "confirmation_sent_at"
    case recoverySentAt = "recovery_sent_at"
    case lastSignInAt = "last_sign_in_at"
    case userMetadata = "user_metadata"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
  }

  /// Decodes a user, tolerating missing and null optional fields.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(String.self, forKey: .id)
    aud = try c.decodeIfPresent(String.self, forKey: .aud)
    role = try c.decodeIfPresent(String.self, forKey: .role)
    email = try c.decodeIfPresent(String.self, forKey: .email)
    emailConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .emailConfirmedAt)
    confirmationSentAt = try c.decodeIfPresent(Date.self, forKey: .confirmationSentAt)
    recoverySentAt = try c.decodeIfPresent(Date.self, forKey: .recoverySentAt)
    lastSignInAt = try c.decodeIfPresent(Date.self, forKey: .lastSignInAt)
    userMetadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .userMetadata) ?? [:]
    identities = try c.decodeIfPresent([GoTrueIdentity].self, forKey: .identities)
    createdAt = try c.decodeIfPresent(Date.self, forKey: .createdAt)
    updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
  }
}

/// One way a user signs in; email users have one with provider `email`.
public struct GoTrueIdentity: Equatable, Hashable, Sendable, Codable {
  /// The identity's ID.
  public var identityId: String?
  /// The user the identity belongs to.
  public var userId: String?
  /// The provider, `email` here.
  public var provider: String

  /// An identity of `provider` for `userId`.
  public init(identityId: String?, userId: String?, provider: String) {
    self.identityId = identityId
    self.userId = userId
    self.provider = provider
  }

  enum CodingKeys: String, CodingKey {
    case provider
    case identityId = "identity_id"
    case userId = "user_id"
  }
}

/// A session as GoTrue returns it from `/token`, `/verify` and signup with autoconfirm.
public struct GoTrueSession: Equatable, Hashable, Sendable, Codable {
  /// The JWT to send as `Authorization: Bearer`.
  public var accessToken: String
  /// Always `bearer`.
  public var tokenType: String
  /// Seconds until the access token expires.
  public var expiresIn: Int
  /// When the access token expires, in Unix seconds.
  public var expiresAt: Int?
  /// The single-use token that gets the next session.
  public var refreshToken: String
  /// The signed-in user.
  public var user: GoTrueUser

  /// A session with the given parts.
  public init(
    accessToken: String, tokenType: String = "bearer", expiresIn: Int, expiresAt: Int?,
    refreshToken: String, user: GoTrueUser
  ) {
    self.accessToken = accessToken
    self.tokenType = tokenType
    self.expiresIn = expiresIn
    self.expiresAt = expiresAt
    self.refreshToken = refreshToken
    self.user = user
  }

  enum CodingKeys: String, CodingKey {
    case user
    case accessToken = "access_token"
    case tokenType = "token_type"
    case expiresIn = "expires_in"
    case expiresAt = "expires_at"
    case refreshToken = "refresh_token"
  }

  /// Decodes a session; a missing token type reads as `bearer`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    accessToken = try c.decode(String.self, forKey: .accessToken)
    tokenType = try c.decodeIfPresent(String.self, forKey: .tokenType) ?? "bearer"
    expiresIn = try c.decode(Int.self, forKey: .expiresIn)
    expiresAt = try c.decodeIfPresent(Int.self, forKey: .expiresAt)
    // Numbers from a server are checked before anything does arithmetic with them: a lifetime
    // of up to ten years, an expiry between 1970 and 9999.
    guard (0...315_360_000).contains(expiresIn) else {
      throw DecodingError.dataCorruptedError(
        forKey: .expiresIn, in: c, debugDescription: "expires_in out of range: \(expiresIn)")
    }
    if let expiresAt, !(0...253_402_300_799).contains(expiresAt) {
      throw DecodingError.dataCorruptedError(
        forKey: .expiresAt, in: c, debugDescription: "expires_at out of range: \(expiresAt)")
    }
    refreshToken = try c.decode(String.self, forKey: .refreshToken)
    user = try c.decode(GoTrueUser.self, forKey: .user)
  }
}

/// What `POST /signup` answers: a session when the account is ready, else the user alone.
public enum GoTrueSignUpResponse: Equatable, Hashable, Sendable, Decodable {
  /// Autoconfirm is on: the new user is signed in.
  case session(GoTrueSession)
  /// Confirmation is required, or the email is taken (then `identities` is empty).
  case user(GoTrueUser)

  /// Decodes a session when the body has an access token, else a user.
  public init(from decoder: any Decoder) throws {
    if let session = try? GoTrueSession(from: decoder) {
      self = .session(session)
    } else {
      self = .user(try GoTrueUser(from: decoder))
    }
  }
}

/// The kinds of emailed code `POST /verify` and `POST /resend` take.
public enum GoTrueOTPType: String, Equatable, Hashable, Sendable, Codable {
  /// Confirms a signup.
  case signup
  /// Matches a confirmation or a recovery code.
  case email
  /// Recovers a forgotten password.
  case recovery
}

/// Which sessions `POST /logout` ends.
public enum GoTrueLogoutScope: String, Equatable, Hashable, Sendable {
  /// Every session of the user (GoTrue's default).
  case global
  /// Only the session of the access token.
  case local
  /// Every session but this one.
  case others
}
