#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The session a server hands an app in a link's fragment, once it has verified the email's
/// link itself: GoTrue's implicit flow (`<redirect_to>#access_token=…&refresh_token=…&type=signup`),
/// what an app receives when its sign-up asked for `emailRedirectTo` into the app.
///
/// Its descriptions never show the tokens, so printing or logging a link cannot leak them.
public struct LinkTokens: Equatable, Hashable, Sendable {
  /// The bearer token the server signed in with.
  public var accessToken: String
  /// The token that renews it.
  public var refreshToken: String
  /// The access token's lifetime in seconds (`expires_in`), when given.
  public var expiresIn: Int?
  /// When the access token expires, in seconds since 1970 (`expires_at`), when given.
  public var expiresAt: Int?
  /// What the link verified (`type`: `signup`, `magiclink`, `invite`, `email`…).
  public var type: String

  /// Tokens as a link's fragment gave them.
  public init(
    accessToken: String, refreshToken: String, expiresIn: Int? = nil, expiresAt: Int? = nil,
    type: String
  ) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
    self.expiresAt = expiresAt
    self.type = type
  }
}

extension LinkTokens: CustomStringConvertible, CustomDebugStringConvertible {
  /// The link's type only: never the tokens.
  public var description: String { "LinkTokens(type: \(type), tokens hidden)" }
  /// As ``description``.
  public var debugDescription: String { description }
}
