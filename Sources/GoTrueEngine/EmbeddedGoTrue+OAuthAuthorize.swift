import AccountStore
import AuthCrypto
import GoTrue

/// The parameters of `GET /oauth/authorize`, each the query's first value or empty.
package struct OAuthAuthorizeRequest: Sendable, Equatable {
  package var clientID = ""
  package var redirectURI = ""
  package var responseType = ""
  package var scope = ""
  package var state = ""
  package var resource = ""
  package var codeChallenge = ""
  package var codeChallengeMethod = ""
  package var nonce = ""

  /// An empty request.
  package init() {}
}

/// Where an authorization step sends the browser: to the client's redirect URI with a code or
/// an error (and the request's `state`), or to the site's consent page.
package enum OAuthRedirect: Sendable, Equatable {
  /// `redirectURI` with `code`.
  case code(redirectURI: String, code: String, state: String?)
  /// `redirectURI` with an RFC 6749 `error` and its description.
  case error(redirectURI: String, error: String, description: String, state: String?)
  /// The consent page at `url`, with `authorization_id`.
  case consent(url: String, authorizationID: String)
}

/// What `GET /oauth/authorizations/{id}` shows the consent page: the request to consent to,
/// or, when the user already granted all it asks, where it was approved to.
package enum OAuthAuthorizationView: Sendable {
  case details(OAuthAuthorizationRecord, client: OAuthClientRecord, user: UserRecord)
  case approved(OAuthRedirect)
}

/// The OAuth 2.1 server's authorization endpoint and consent (GoTrue's
/// `oauthserver/authorize.go`): a client sends the browser to `GET /oauth/authorize`, which
/// keeps the request and sends the browser on to the site's consent page; the page, for the
/// signed-in user, reads the request and approves or denies it, and the browser goes back to
/// the client with a code or an error.
extension EmbeddedGoTrue {
  /// `GET /oauth/authorize`. Until the client and its redirect URI are known, refusals are
  /// GoTrue's errors; after, they go back to the client in the redirect, as RFC 6749 asks.
  package func beginOAuthAuthorization(_ request: OAuthAuthorizeRequest) throws(GoTrueFailure)
    -> OAuthRedirect
  {
    if request.clientID.isEmpty { throw .api(.invalid("client_id is required")) }
    if request.redirectURI.isEmpty { throw .api(.invalid("redirect_uri is required")) }
    guard case .success(let clientID) = GoUUID.parse(request.clientID) else {
      throw .api(Self.unknownClient("invalid client_id format"))
    }
    let settings = configuration.oauthServer
    let site = configuration.siteURL
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) -> OAuthRedirect in
      guard let client = try database.oauthClient(id: clientID) else {
        throw Self.unknownClient("invalid client_id")
      }
      guard client.redirectURIs.split(separator: ",").contains(Substring(request.redirectURI))
      else { throw .invalid("invalid redirect_uri") }
      let state = request.state.isEmpty ? nil : request.state
      let scope = request.scope.isEmpty ? settings.defaultScope : request.scope
      if let problem = Self.authorizeProblem(request, scope: scope) {
        return .error(
          redirectURI: request.redirectURI, error: "invalid_request", description: problem,
          state: state)
      }
      let authorization = OAuthAuthorizationRecord(
        id: random.uuidString(), authorizationID: Base32.encode(random.bytes(20)).lowercased(),
        clientID: client.id, userID: nil, redirectURI: request.redirectURI, scope: scope,
        state: state, resource: Self.nonEmpty(request.resource),
        codeChallenge: request.codeChallenge,
        codeChallengeMethod: request.codeChallengeMethod.lowercased(),
        nonce: Self.nonEmpty(request.nonce), status: "pending", codeHash: nil, createdAt: now,
        expiresAt: now + Int64(settings.authorizationLifetime * 1_000), approvedAt: nil)
      try database.insertOAuthAuthorization(authorization)
      guard !settings.authorizationPath.isEmpty else {
        return .error(
          redirectURI: request.redirectURI, error: "server_error",
          description: "oauth authorization path not configured", state: state)
      }
      var base = Substring(site)
      while base.hasSuffix("/") { base = base.dropLast() }
      let path = settings.authorizationPath
      return .consent(
        url: base + (path.hasPrefix("/") ? path : "/" + path),
        authorizationID: authorization.authorizationID)
    }
  }

  /// `GET /oauth/authorizations/{id}` for the user of `accessToken`: the first signed-in user
  /// to read a pending request makes it theirs; when they already granted its client every
  /// scope it asks, it is approved at once.
  package func oauthAuthorization(_ authorizationID: String, accessToken: String)
    throws(GoTrueFailure) -> OAuthAuthorizationView
  {
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try authorize(accessToken, database, now: now).user
      var authorization = try pendingAuthorization(authorizationID, database, now: now) {
        "authorization request cannot be processed"
      }
      if let owner = authorization.userID {
        guard owner == user.id else { throw Self.authorizationNotFound }
      } else {
        authorization.userID = user.id
        try database.updateOAuthAuthorization(authorization)
        if let consent = try database.oauthConsent(user: user.id, client: authorization.clientID),
          consent.revokedAt == nil,
          Self.scopes(authorization.scope).allSatisfy(Self.scopes(consent.scopes).contains)
        {
          return .approved(try approve(&authorization, database, now: now))
        }
      }
      guard let client = try database.oauthClient(id: authorization.clientID) else {
        throw Self.authorizationNotFound
      }
      return .details(authorization, client: client, user: user)
    }
  }

  /// `POST /oauth/authorizations/{id}/consent`: the user approves (the consent is kept for
  /// the next time) or denies the request they read.
  package func consentToOAuthAuthorization(
    _ authorizationID: String, approve approved: Bool, accessToken: String
  ) throws(GoTrueFailure) -> OAuthRedirect {
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try authorize(accessToken, database, now: now).user
      var authorization = try pendingAuthorization(authorizationID, database, now: now) {
        "authorization request is no longer pending"
      }
      guard authorization.userID == user.id else { throw Self.authorizationNotFound }
      guard approved else {
        authorization.status = "denied"
        try database.updateOAuthAuthorization(authorization)
        return .error(
          redirectURI: authorization.redirectURI, error: "access_denied",
          description: "User denied the request", state: authorization.state)
      }
      let redirect = try approve(&authorization, database, now: now)
      let existing = try database.oauthConsent(user: user.id, client: authorization.clientID)
      try database.saveOAuthConsent(
        OAuthConsentRecord(
          id: existing?.id ?? random.uuidString(), userID: user.id,
          clientID: authorization.clientID,
          scopes: Self.scopes(authorization.scope).joined(separator: " "), grantedAt: now,
          revokedAt: nil))
      return redirect
    }
  }

  /// The authorization `authorizationID` while it is pending; an expired one is not found.
  private func pendingAuthorization(
    _ authorizationID: String, _ database: EngineAccounts, now: Int64,
    notPending: () -> String
  ) throws(GoTrueAPIError) -> OAuthAuthorizationRecord {
    guard let authorization = try database.oauthAuthorization(authorizationID: authorizationID),
      now <= authorization.expiresAt
    else { throw Self.authorizationNotFound }
    guard authorization.status == "pending" else { throw .invalid(notPending()) }
    return authorization
  }

  /// Approves `authorization`, giving it a code (kept as its hash), and says where the
  /// browser takes the code.
  private func approve(
    _ authorization: inout OAuthAuthorizationRecord, _ database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) -> OAuthRedirect {
    let code = secretRandom.uuidString()
    authorization.status = "approved"
    authorization.approvedAt = now
    authorization.codeHash = Self.authorizationCodeHash(code)
    try database.updateOAuthAuthorization(authorization)
    return .code(redirectURI: authorization.redirectURI, code: code, state: authorization.state)
  }

  /// The hash an authorization code is kept as.
  static func authorizationCodeHash(_ code: String) -> String {
    Base64URL.encode(SHA256.hash("oauth-code:" + code))
  }

  /// GoTrue's `validateRequestOrigin`, the consent routes' first check after their caller's:
  /// a browser's `Origin` must be one a redirect may go to.
  package func checkOAuthOrigin(_ origin: String?) throws(GoTrueFailure) {
    guard let origin, !origin.isEmpty else { return }
    if allowedRedirect(origin) != origin {
      throw .api(.invalid("unauthorized request origin"))
    }
  }

  /// What is wrong with the rest of an authorize request (GoTrue's
  /// `validateRemainingAuthorizeParams`), if anything.
  private static func authorizeProblem(_ request: OAuthAuthorizeRequest, scope: String)
    -> String?
  {
    if !request.responseType.isEmpty && request.responseType != "code" {
      return "only response_type=code is supported"
    }
    let scopes = Self.scopes(scope)
    if scopes.isEmpty { return "scope parameter cannot be empty" }
    if let unknown = scopes.first(where: { !oauthScopes.contains($0) }) {
      return "unsupported scope: \(unknown)"
    }
    if !request.resource.isEmpty {
      guard let resource = GoURL(request.resource) else { return "resource must be a valid URI" }
      if resource.scheme.isEmpty { return "resource must be an absolute URI" }
      if !resource.fragment.isEmpty { return "resource must not include a fragment component" }
      if !resource.query.isEmpty { return "resource must not include a query component" }
    }
    if request.codeChallenge.isEmpty || request.codeChallengeMethod.isEmpty {
      return "PKCE flow requires both code_challenge and code_challenge_method"
    }
    if !["s256", "plain"].contains(request.codeChallengeMethod.lowercased()) {
      return "code_challenge_method must be 'S256' or 'plain'"
    }
    if !(43...128).contains(request.codeChallenge.utf8.count) {
      return "code_challenge must be between 43 and 128 characters"
    }
    return nil
  }

  /// The scopes GoTrue's OAuth server knows (`models.SupportedOAuthScopes`).
  package static let oauthScopes = ["openid", "profile", "email", "phone", "offline_access"]

  /// A scope string's scopes (`models.ParseScopeString`): split at spaces, blanks dropped.
  package static func scopes(_ text: String) -> [String] {
    text.split(separator: " ").map { part in
      String(part.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }.filter { !$0.isEmpty }
  }

  static let authorizationNotFound = GoTrueAPIError(
    status: 404, code: .oauthAuthorizationNotFound, message: "authorization not found")

  private static func unknownClient(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 400, code: .oauthClientNotFound, message: message)
  }
}
