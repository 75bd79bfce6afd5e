#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The signed-in user as the backend describes them.
public struct AuthUser: Equatable, Hashable, Sendable {
  /// The backend's identifier for the user (a UUID for GoTrue).
  public var id: String
  /// The user's email address.
  public var email: String
  /// When the email address was confirmed, or `nil` while it is not (or when the backend
  /// does not say when, as Firebase does not).
  public var emailConfirmedAt: Date?
  /// Whether the email address is confirmed (the `email_verified` claim of the tokens).
  public var emailVerified: Bool
  /// What the app stored with the account, as text: `first_name`, `last_name`,
  /// `terms_accepted_at` (GoTrue's `user_metadata`; Firebase's display name).
  public var metadata: [String: String]

  /// A user with the given identity. `emailVerified` defaults to whether a confirmation time
  /// is known.
  public init(
    id: String, email: String, emailConfirmedAt: Date? = nil, emailVerified: Bool? = nil,
    metadata: [String: String] = [:]
  ) {
    self.id = id
    self.email = email
    self.emailConfirmedAt = emailConfirmedAt
    self.emailVerified = emailVerified ?? (emailConfirmedAt != nil)
    self.metadata = metadata
  }
}

/// A signed-in session: the user and the tokens that prove it.
///
/// Its descriptions never show the tokens, so printing or logging a session cannot leak them.
public struct AuthSession: Equatable, Hashable, Sendable {
  /// Who is signed in.
  public var user: AuthUser
  /// The short-lived bearer token (a JWT for GoTrue backends).
  public var accessToken: String
  /// The long-lived token that gets a new access token.
  public var refreshToken: String
  /// When the access token stops being accepted.
  public var expiresAt: Date
  /// The access token's lifetime in seconds, as the backend gave it with the token (GoTrue's
  /// `expires_in`, Firebase's `expiresIn`); seed 004's Session model lists it beside
  /// `expires_at`.
  public var expiresIn: Int
  /// How the access token is sent: `bearer` from GoTrue, `Bearer` from Firebase's Secure Token
  /// (seed 004's `token_type`).
  public var tokenType: String

  /// The lifetime of an access token when the backend did not say: GoTrue's and Firebase's.
  public static let defaultLifetime = 3_600

  /// A session for `user` with the given tokens; `expiresIn` and `tokenType` as the backend
  /// gave them (by default GoTrue's hour and `bearer`).
  public init(
    user: AuthUser, accessToken: String, refreshToken: String, expiresAt: Date,
    expiresIn: Int = defaultLifetime, tokenType: String = "bearer"
  ) {
    self.user = user
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.expiresIn = expiresIn
    self.tokenType = tokenType
  }

  /// Whether the access token has expired at `date`, or will within `leeway` seconds.
  public func isExpired(at date: Date, leeway: TimeInterval = 0) -> Bool {
    expiresAt.timeIntervalSince(date) <= leeway
  }
}

extension AuthSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The user and expiry, with both tokens masked.
  public var description: String {
    "AuthSession(user: \(user.email), expiresAt: \(expiresAt), expiresIn: \(expiresIn), "
      + "tokenType: \(tokenType), tokens: ••••)"
  }

  /// The same as ``description``: tokens stay masked in debug output too.
  public var debugDescription: String { description }

  /// A mirror without the tokens, so `dump` and test failure output cannot print them.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "user": user, "expiresAt": expiresAt, "expiresIn": expiresIn, "tokenType": tokenType,
      ], displayStyle: .struct)
  }
}
