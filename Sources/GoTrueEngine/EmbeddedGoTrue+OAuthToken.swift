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
}
