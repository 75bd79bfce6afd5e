#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
public enum GoTrueOTPType: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
  /// Confirms a signup.
  case signup
  /// Matches a confirmation or a recovery code.
  case email
  /// Recovers a forgotten password.
  case recovery
  /// Signs in from an emailed link or code.
  case magiclink
  /// Confirms a new email address.
  case emailChange = "email_change"
  /// Accepts an invitation.
  case invite
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
