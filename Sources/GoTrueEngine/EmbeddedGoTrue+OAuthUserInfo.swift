import AccountStore
import GoTrue

/// What the OAuth server tells a client of its user by OIDC: the ID token of the `openid` scope
/// and the UserInfo endpoint (GoTrue's `GenerateIDToken`, `OAuthUserInfo`).
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

  /// GoTrue's `GenerateIDToken`: an hour's OIDC ID token for `client`, its claims those the
  /// granted scopes allow.
  func idToken(
    user: UserRecord, client: String, authorization: OAuthAuthorizationRecord, issuedAt: Int
  ) -> String {
    let scopes = Self.scopes(authorization.scope)
    var claims: [String: JSONValue] = [
      "sub": .string(user.id), "aud": .array([.string(client)]),
      "iat": .number(Double(issuedAt)), "exp": .number(Double(issuedAt + 3_600)),
      "auth_time": .number(Double((user.lastSignInAt ?? Int64(issuedAt) * 1_000) / 1_000)),
      "client_id": .string(client), "email_verified": .bool(false),
      "phone_number_verified": .bool(false),
    ]
    if let issuer = configuration.issuer, !issuer.isEmpty { claims["iss"] = .string(issuer) }
    if let nonce = authorization.nonce, !nonce.isEmpty { claims["nonce"] = .string(nonce) }
    if scopes.contains("email") {
      if !user.email.isEmpty { claims["email"] = .string(user.email) }
      claims["email_verified"] = .bool(user.emailConfirmedAt != nil)
    }
    if scopes.contains("profile") {
      let metadata = { (key: String) in user.userMetadata[key]?.stringValue.flatMap(Self.nonEmpty) }
      if let name = metadata("name") ?? Self.nonEmpty(user.email) { claims["name"] = .string(name) }
      if let picture = metadata("picture") ?? metadata("avatar_url") {
        claims["picture"] = .string(picture)
      }
      if let username = metadata("preferred_username") ?? metadata("username") {
        claims["preferred_username"] = .string(username)
      }
      if user.updatedAt > 0 { claims["updated_at"] = .number(Double(user.updatedAt / 1_000)) }
    }
    return JSONWebToken.sign(claims, key: tokenKeys.signing)
  }

}
