import AccountStore
import GoTrue

/// The OIDC UserInfo endpoint of the OAuth server (GoTrue's `OAuthUserInfo`).
extension EmbeddedGoTrue {
  /// `GET /oauth/userinfo` for the user of `accessToken`: `sub`, and what the scopes granted to
  /// the token's session allow (`email`, `profile`, `phone`); a token of no OAuth session gets
  /// `sub` alone.
  package func oauthUserInfo(accessToken: String) throws(GoTrueFailure) -> JSONValue {
    let now = nowMillis
    return try withDatabase { database throws(GoTrueAPIError) in
      let (claims, user) = try authorize(accessToken, database, now: now)
      var info: [String: JSONValue] = ["sub": .string(user.id)]
      guard let sessionID = claims.sessionID,
        let session = try database.session(id: sessionID, ofUser: user.id)
      else { return .object(info) }
      let scopes = Self.scopes(session.scopes ?? "")
      if scopes.contains("email") {
        if !user.email.isEmpty { info["email"] = .string(user.email) }
        if user.emailConfirmedAt != nil { info["email_verified"] = .bool(true) }
      }
      if scopes.contains("profile") {
        let metadata = { (key: String) in
          user.userMetadata[key]?.stringValue.flatMap(Self.nonEmpty)
        }
        if let name = metadata("name") ?? Self.nonEmpty(user.email) {
          info["name"] = .string(name)
        }
        if let picture = metadata("picture") ?? metadata("avatar_url") {
          info["picture"] = .string(picture)
        }
        if let username = metadata("preferred_username") ?? metadata("username") {
          info["preferred_username"] = .string(username)
        }
        if user.updatedAt > 0 { info["updated_at"] = .number(Double(user.updatedAt / 1_000)) }
        info["user_metadata"] = .object(user.userMetadata)
      }
      return .object(info)
    }
  }
}
