import AccountStore
import AuthCrypto
import GoTrue

/// How a client authenticated at `POST /oauth/token` (GoTrue's `ClientCredentials`).
package struct OAuthClientCredentials: Sendable, Equatable {
  package var clientID: String
  package var secret: String
  /// `client_secret_basic`, `client_secret_post` or `none`.
  package var method: String

  /// Credentials of their parts.
  package init(clientID: String, secret: String, method: String) {
    self.clientID = clientID
    self.secret = secret
    self.method = method
  }
}

/// The parameters of `POST /oauth/token` (GoTrue's `OAuthTokenParams`).
package struct OAuthTokenRequest: Sendable, Equatable {
  package var grantType = ""
  package var code = ""
  package var refreshToken = ""
  package var redirectURI = ""
  package var codeVerifier = ""
  package var resource = ""

  /// An empty request.
  package init() {}
}

/// What `POST /oauth/token` answers: the client's session, and an OIDC ID token when the
/// `openid` scope was granted.
package struct OAuthTokens: Sendable {
  package var session: GoTrueSession
  package var idToken: String?
}

/// The OAuth 2.1 server's token endpoint (GoTrue's `requireOAuthClientAuth` and `OAuthToken`):
/// a client exchanges an authorization code and its PKCE verifier, or refreshes, for tokens
/// of a session that is its own, whose access tokens carry its `client_id` and the scopes
/// granted.
extension EmbeddedGoTrue {
  /// GoTrue's `requireOAuthClientAuth`: the client `credentials` name, checked against its
  /// registered method and secret; `nil` when none was named. Refusals are 400
  /// `invalid_credentials`.
  package func authenticateOAuthClient(_ credentials: OAuthClientCredentials?)
    throws(GoTrueFailure) -> OAuthClientRecord?
  {
    guard let credentials, !credentials.clientID.isEmpty else { return nil }
    let refuse = { (message: String) in
      GoTrueFailure.api(GoTrueAPIError(status: 400, code: .invalidCredentials, message: message))
    }
    guard case .success(let id) = GoUUID.parse(credentials.clientID) else {
      throw refuse("Invalid client_id format")
    }
    let found = try withDatabase { database throws(GoTrueAPIError) in
      try database.oauthClient(id: id)
    }
    guard let client = found else { throw refuse("Invalid client credentials") }
    if credentials.method != client.tokenEndpointAuthMethod {
      throw refuse(
        "invalid authentication method: client is registered for "
          + "'\(client.tokenEndpointAuthMethod)' but '\(credentials.method)' was used")
    }
    if client.clientType == "public" {
      if !credentials.secret.isEmpty {
        throw refuse("public clients must not provide client_secret")
      }
    } else if credentials.secret.isEmpty {
      throw refuse("confidential clients must provide client_secret")
    } else if !Self.secretMatches(credentials.secret, client) {
      throw refuse("invalid client credentials")
    }
    return client
  }

  /// `POST /oauth/token` for `client` (authenticated first): GoTrue's OAuth-shaped refusals
  /// (`invalid_request`, `invalid_client`, `invalid_grant`, `unsupported_grant_type`), else
  /// the session.
  package func oauthToken(_ request: OAuthTokenRequest, client: OAuthClientRecord?)
    async throws(GoTrueFailure) -> OAuthTokens
  {
    if request.grantType.isEmpty { throw Self.oauth("invalid_request", "grant_type is required") }
    guard let client else {
      throw Self.oauth("invalid_client", "Client authentication required")
    }
    let allowed = client.grantTypes.split(separator: ",").map {
      $0.trimmingPrefix(while: \.isWhitespace)
    }
    guard allowed.contains(where: { $0 == request.grantType }) else {
      throw Self.oauth(
        "unsupported_grant_type", "Client is not allowed to use grant type: " + request.grantType)
    }
    switch request.grantType {
    case "authorization_code":
      return try await exchangeAuthorizationCode(request, client: client)
    case "refresh_token":
      if request.refreshToken.isEmpty {
        throw Self.oauth("invalid_request", "refresh_token is required for refresh_token grant")
      }
      let (user, session, token, now) = try rotate(
        refreshToken: request.refreshToken, firebase: false, oauthClient: client.id)
      let refreshed = try await withHookClaims(
        makeSession(user: user, session: session, refreshToken: token, now: now),
        method: "token_refresh", isNew: false)
      return OAuthTokens(session: refreshed, idToken: nil)
    default:
      throw Self.oauth("unsupported_grant_type", "Unsupported grant type: " + request.grantType)
    }
  }

  private func exchangeAuthorizationCode(_ request: OAuthTokenRequest, client: OAuthClientRecord)
    async throws(GoTrueFailure) -> OAuthTokens
  {
    if request.code.isEmpty {
      throw Self.oauth("invalid_request", "code is required for authorization_code grant")
    }
    let codeHash = Self.authorizationCodeHash(request.code)
    let method = SignInMethod.oauthAuthorizationCode
    let (session, user, authorization, now) = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) in
      guard let authorization = try database.oauthAuthorization(codeHash: codeHash) else {
        throw .oauth("invalid_grant", "Invalid authorization code")
      }
      if now > authorization.expiresAt {
        throw .oauth("invalid_grant", "Authorization code has expired")
      }
      if authorization.clientID != client.id {
        throw .oauth("invalid_grant", "Authorization code was not issued for this client")
      }
      if !request.resource.isEmpty && request.resource != (authorization.resource ?? "") {
        throw .oauth(
          "invalid_grant", "Authorization code resource does not match the resource parameter")
      }
      if !request.redirectURI.isEmpty && request.redirectURI != authorization.redirectURI {
        throw .oauth("invalid_grant", "Invalid redirect_uri")
      }
      if let problem = Self.pkceProblem(authorization, verifier: request.codeVerifier) {
        throw .oauth("invalid_grant", "PKCE verification failed: " + problem)
      }
      guard let userID = authorization.userID else {
        throw .oauth("invalid_grant", "Authorization code has no associated user")
      }
      guard let user = try database.user(id: userID), user.deletedAt == nil else {
        throw .oauth("invalid_grant", "User not found for authorization code")
      }
      if user.isBanned(at: now) { throw .oauth("access_denied", "User is banned") }
      try audit(
        database, .user(user), .login,
        traits: [
          "provider_type": .string("oauth_provider_authorization_code"),
          "client_id": .string(client.id),
        ], now: now)
      let (opened, refreshToken) = try openSession(
        for: user, method: method, in: database, now: now)
      try database.setOAuthClient(
        session: opened.id, client: client.id, scopes: authorization.scope)
      try database.updateUser(user.id, [.lastSignInAt(now)])
      try database.deleteOAuthAuthorization(id: authorization.id)
      var info = opened
      info.oauthClientID = client.id
      info.scopes = authorization.scope
      var signedIn = user
      signedIn.lastSignInAt = now
      return (
        makeSession(user: signedIn, session: info, refreshToken: refreshToken, now: now),
        signedIn, authorization, now
      )
    }
    let tokens = try await withHookClaims(session, method: method.rawValue, isNew: true)
    guard Self.scopes(authorization.scope).contains("openid") else {
      return OAuthTokens(session: tokens, idToken: nil)
    }
    // GoTrue signs ID tokens with an asymmetric key only: with the secret, the code is spent
    // and the answer is its unforeseen 500.
    guard tokenKeys.signing.algorithm != .hs256 else {
      throw .api(
        GoTrueAPIError(
          status: 500, code: .unexpectedFailure, message: "Error generating ID token"))
    }
    return OAuthTokens(
      session: tokens,
      idToken: idToken(
        user: user, client: client.id, authorization: authorization, issuedAt: Int(now / 1_000)))
  }

  /// GoTrue's `GenerateIDToken`: an hour's OIDC ID token for `client`, its claims those the
  /// granted scopes allow.
  private func idToken(
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

  /// Why `verifier` does not prove `authorization`'s PKCE challenge, in GoTrue's words.
  private static func pkceProblem(_ authorization: OAuthAuthorizationRecord, verifier: String)
    -> String?
  {
    guard let challenge = authorization.codeChallenge, !challenge.isEmpty else { return nil }
    if verifier.isEmpty { return "code_verifier is required when PKCE challenge is present" }
    guard let method = PKCEChallenge.Method(rawValue: authorization.codeChallengeMethod ?? "")
    else { return "code challenge method not supported" }
    let proved = PKCEChallenge(challenge: challenge, method: method).verifies(verifier)
    return proved ? nil : "code challenge does not match previously saved code verifier"
  }

  static func oauth(_ error: String, _ description: String) -> GoTrueFailure {
    .api(.oauth(error, description))
  }

  // MARK: Grants

  /// A client the user granted scopes to, and when (`GET /user/oauth/grants`).
  package typealias OAuthGrant = (client: OAuthClientRecord, scopes: [String], grantedAt: Int64)

  /// The grants of the user of `accessToken` not revoked, the latest first; a deleted
  /// client's are left out.
  package func oauthGrants(accessToken: String) throws(GoTrueFailure) -> [OAuthGrant] {
    let now = nowMillis
    return try withDatabase { database throws(GoTrueAPIError) in
      let user = try authorize(accessToken, database, now: now).user
      var grants: [OAuthGrant] = []
      for consent in try database.oauthConsents(ofUser: user.id) {
        guard let client = try database.oauthClient(id: consent.clientID) else { continue }
        grants.append((client, Self.scopes(consent.scopes), consent.grantedAt))
      }
      return grants
    }
  }

  /// `DELETE /user/oauth/grants?client_id=`: revokes the grant and ends the client's sessions
  /// of the user, so its refresh tokens stop working.
  package func revokeOAuthGrant(clientID: String, accessToken: String) throws(GoTrueFailure) {
    if clientID.isEmpty { throw .api(.invalid("client_id query parameter is required")) }
    guard case .success(let id) = GoUUID.parse(clientID) else {
      throw .api(.invalid("invalid client_id format"))
    }
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try authorize(accessToken, database, now: now).user
      guard var consent = try database.oauthConsent(user: user.id, client: id),
        consent.revokedAt == nil
      else {
        throw GoTrueAPIError(
          status: 404, code: .oauthConsentNotFound, message: "No active grant found for this client"
        )
      }
      consent.revokedAt = now
      try database.saveOAuthConsent(consent)
      try database.deleteSessions(ofUser: user.id, oauthClient: id)
      try audit(
        database, .user(user), .tokenRevoked,
        traits: ["oauth_client_id": .string(id), "action": .string("revoke_oauth_grant")],
        now: now)
    }
  }
}
