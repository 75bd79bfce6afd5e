import AccountStore
import AuthCrypto
import GoTrue

extension EmbeddedGoTrue {
  /// Starts a session for `user`: a row in `sessions`, a refresh token stored as its hash, and
  /// a signed access token. `method` is how the user proved who they are (the `amr` claim).
  package func createSession(
    for user: UserRecord, method: SignInMethod, in database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) -> GoTrueSession {
    let (session, refreshToken) = try openSession(for: user, method: method, in: database, now: now)
    return makeSession(user: user, session: session, refreshToken: refreshToken, now: now)
  }

  /// Adds a session for `user` with its first refresh token; the caller signs its tokens.
  package func openSession(
    for user: UserRecord, method: SignInMethod, in database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) -> (SessionInfo, refreshToken: String) {
    let sessionID = random.uuidString()
    try database.insertSession(id: sessionID, userID: user.id, method: method, now: now)
    let refreshToken = try issueRefreshToken(sessionID: sessionID, parent: nil, database, now)
    return (SessionInfo(id: sessionID, method: method, startedAt: now), refreshToken)
  }

  /// A session's id and how and when it began, for the access token's claims.
  package struct SessionInfo: Sendable {
    package var id: String
    package var method: SignInMethod
    package var startedAt: Int64
    /// The assurance level, `aal1` or `aal2` (``EmbeddedGoTrue/withAssurance(_:_:)``).
    package var aal = "aal1"
    /// Methods proved after the session began (`session_amr`), such as `totp`.
    package var laterMethods: [ProvedMethod] = []
    /// The OAuth client whose session it is (the `client_id` claim), and the scopes it was
    /// granted (`scope`).
    package var oauthClientID: String?
    package var scopes: String?

    package init(id: String, method: SignInMethod, startedAt: Int64) {
      self.id = id
      self.method = method
      self.startedAt = startedAt
    }

    /// `session` as it began; ``EmbeddedGoTrue/withAssurance(_:_:)`` adds what it proved since.
    package init(_ session: StoredSession) {
      self.init(id: session.id, method: session.method, startedAt: session.createdAt)
      oauthClientID = session.oauthClientID
      scopes = session.scopes
    }
  }

  package func makeSession(user: UserRecord, session: SessionInfo, refreshToken: String, now: Int64)
    -> GoTrueSession
  {
    let issuedAt = Int(now / 1_000)
    let lifetime = Int(configuration.accessTokenLifetime)
    let claims = accessClaims(user: user, session: session, issuedAt: issuedAt)
    return GoTrueSession(
      accessToken: JSONWebToken.sign(claims, key: tokenKeys.signing), expiresIn: lifetime,
      expiresAt: issuedAt + lifetime, refreshToken: refreshToken, user: user.goTrueUser)
  }

  /// Throws 400 `validation_failed` when `user`'s access token would be longer than
  /// ``EngineConfiguration/maximumTokenBytes``: its metadata are in every token, and a
  /// token the server cannot read back in a header would lock the user out. Call after
  /// writing the user, inside the write's transaction, so the write is undone.
  package func checkTokenFits(_ user: UserRecord) throws(GoTrueAPIError) {
    let session = SessionInfo(id: UUIDText.placeholder, method: .password, startedAt: 0)
    let claims = accessClaims(user: user, session: session, issuedAt: Int(Int32.max))
    let length = JSONWebToken.length(ofTokenWith: claims, key: tokenKeys.signing)
    guard length > configuration.maximumTokenBytes else { return }
    throw GoTrueAPIError(
      status: 400, code: .validationFailed,
      message:
        "user_metadata and app_metadata are too large: with them an access token would take "
        + "\(length) bytes, over the \(configuration.maximumTokenBytes) a request header may "
        + "carry; keep them to a few kilobytes of JSON and larger data in your own tables")
  }

  /// GoTrue's access-token claims (`tokens/service.go`); `iss` only when an issuer is
  /// configured.
  private func accessClaims(user: UserRecord, session: SessionInfo, issuedAt: Int)
    -> [String: JSONValue]
  {
    let lifetime = Int(configuration.accessTokenLifetime)
    var claims: [String: JSONValue] = [
      "sub": .string(user.id), "aud": .string(AccessClaims.audience),
      "exp": .number(Double(issuedAt + lifetime)), "iat": .number(Double(issuedAt)),
      "email": .string(user.email), "phone": .string(user.phone ?? ""),
      "app_metadata": .object(user.appMetadata), "user_metadata": .object(user.userMetadata),
      "role": .string(user.role), "aal": .string(session.aal), "amr": session.amrClaim,
      "session_id": .string(session.id), "is_anonymous": .bool(user.isAnonymous),
    ]
    if let issuer = configuration.issuer { claims["iss"] = .string(issuer) }
    if let client = session.oauthClientID, !client.isEmpty { claims["client_id"] = .string(client) }
    if let scopes = session.scopes, !scopes.isEmpty { claims["scope"] = .string(scopes) }
    return claims
  }

  /// Stores `token` (only its hash) as a refresh token of the session; a new session's first
  /// token is random.
  func issueRefreshToken(
    sessionID: String, parent: StoredRefreshToken?, _ database: EngineAccounts, _ now: Int64,
    token: String? = nil
  ) throws(GoTrueAPIError) -> String {
    let token = token ?? secretRandom.token(byteCount: 32)
    try database.insertRefreshToken(
      hash: SHA256.hash(token), session: sessionID, parent: parent, now: now)
    return token
  }

  /// The token a refresh token rotates into. It is derived from the token itself under the
  /// store's key, so a client that presents a just-rotated token again can be given the same
  /// new session without the store ever keeping a token it could hand out: only whoever holds
  /// the old token can compute the new one.
  private func successor(of token: String) -> String {
    Base64URL.encode(HMAC.sha256(key: secrets.codes, message: Array("refresh:\(token)".utf8)))
  }

  /// `POST /token?grant_type=refresh_token`: rotates the token. A rotated token presented again
  /// within the reuse interval gets the session it was rotated into (two clients refreshing at
  /// once both stay signed in); after it, reuse revokes the whole session, as GoTrue does.
  @concurrent
  public func refresh(refreshToken: String) async throws(GoTrueFailure) -> GoTrueSession {
    // The token is signed after the transaction, so the store is not held while it is.
    let (user, session, token, now) = try rotate(refreshToken: refreshToken, firebase: false)
    return try await withHookClaims(
      makeSession(user: user, session: session, refreshToken: token, now: now),
      method: "token_refresh", isNew: false)
  }

  /// A rotated refresh token: the user, the session, the token to use next and the time.
  package typealias Rotation = (
    user: UserRecord, session: SessionInfo, refreshToken: String, now: Int64
  )

  /// Rotates `refreshToken` as ``refresh(refreshToken:)`` does, leaving the signing of a token
  /// to the caller. A token of the other surface's sessions (`firebase` says which surface
  /// asks) is not found. `oauthClient` is the OAuth client that authenticated at
  /// `POST /oauth/token`: an OAuth client's session is refreshed by that client only, and
  /// any other session by no client (GoTrue's `RefreshTokenGrant`, in the OAuth shape).
  package func rotate(refreshToken: String, firebase: Bool, oauthClient: String? = nil)
    throws(GoTrueFailure) -> Rotation
  {
    enum Outcome: Sendable {
      case rotated(UserRecord, SessionInfo, refreshToken: String, now: Int64)
      case reused
    }
    let reuseInterval = Int64(configuration.refreshTokenReuseInterval * 1_000)
    // The Firebase Auth emulator limits no request rate: its Secure Token spends no budget.
    let budget: KeyPath<EngineConfiguration.RateLimits, EngineConfiguration.Budget>? =
      firebase ? nil : \.token
    let outcome = try answer(spending: budget) { database, now throws(GoTrueAPIError) -> Outcome in
      guard refreshToken.utf8.count >= 12 else {
        throw GoTrueAPIError(
          status: 400, code: .validationFailed, message: "Refresh token is not valid")
      }
      guard let row = try database.refreshToken(hash: SHA256.hash(refreshToken)),
        (row.session.method == .firebase) == firebase
      else {
        throw GoTrueAPIError(
          status: 400, code: .refreshTokenNotFound,
          message: "Invalid Refresh Token: Refresh Token Not Found")
      }
      let session = try withAssurance(row.session, database)
      guard let user = try database.user(id: row.session.userID) else {
        throw GoTrueAPIError(
          status: 400, code: .sessionNotFound,
          message: "Invalid Refresh Token: No Valid Session Found")
      }
      if user.isBanned(at: now) {
        throw GoTrueAPIError(
          status: 400, code: .userBanned, message: "Invalid Refresh Token: User Banned")
      }
      // GoTrue's session limits come before reuse is looked at; the Firebase emulator has none.
      if !firebase,
        let refusal = configuration.sessionLimits.refusal(
          createdAt: row.session.createdAt, refreshedAt: row.session.refreshedAt, now: now)
      {
        throw refusal
      }
      if let refusal = Self.clientRefusal(session: row.session, client: oauthClient) {
        throw refusal
      }
      if let revokedAt = row.revokedAt {
        guard now - revokedAt <= reuseInterval,
          let active = try activeSuccessor(of: refreshToken, in: row.session.id, database)
        else {
          try database.deleteSession(row.session.id)
          return .reused
        }
        return .rotated(user, session, refreshToken: active, now: now)
      }
      if !firebase {
        try audit(database, .user(user), .tokenRevoked, now: now)
        try audit(database, .user(user), .tokenRefreshed, now: now)
      }
      try database.revokeRefreshToken(row, at: now)
      try database.markRefreshed(session: row.session.id, at: now)
      let next = try issueRefreshToken(
        sessionID: row.session.id, parent: row, database, now, token: successor(of: refreshToken)
      )
      return .rotated(user, session, refreshToken: next, now: now)
    }
    switch outcome {
    case .rotated(let user, let session, let refreshToken, let now):
      return (user, session, refreshToken, now)
    case .reused:
      throw .api(
        GoTrueAPIError(
          status: 400, code: .refreshTokenAlreadyUsed,
          message: "Invalid Refresh Token: Already Used"))
    }
  }

  /// Why `client` may not refresh `session`, if it may not.
  private static func clientRefusal(session: StoredSession, client: String?) -> GoTrueAPIError? {
    if let owner = session.oauthClientID {
      guard let client else {
        return .oauth("invalid_client", "Client authentication required for OAuth session")
      }
      if client != owner {
        return .oauth("invalid_client", "Client does not match the session's OAuth client")
      }
    } else if client != nil {
      return .oauth("invalid_client", "Client authentication not allowed for non-OAuth session")
    }
    return nil
  }

  /// The token of `session` that `token` was rotated into, following later rotations to the one
  /// still active; `nil` when the chain leaves the session or runs out.
  private func activeSuccessor(of token: String, in session: String, _ database: EngineAccounts)
    throws(GoTrueAPIError) -> String?
  {
    var current = token
    for _ in 0..<16 {
      current = successor(of: current)
      guard let row = try database.refreshToken(hash: SHA256.hash(current)),
        row.session.id == session
      else {
        return nil
      }
      if row.revokedAt == nil { return current }
    }
    return nil
  }

  /// The user and claims of `accessToken`, if it is a valid token of a user who still exists,
  /// is not banned, and (when the token names one) still has its session; otherwise GoTrue's
  /// answer for what is wrong.
  func authorize(_ accessToken: String, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError)
    -> (claims: AccessClaims, user: UserRecord)
  {
    let claims = try AccessClaims(
      JSONWebToken.verify(accessToken, keys: tokenKeys, now: Int(now / 1_000)))
    let found =
      if let sessionID = claims.sessionID {
        try database.user(id: claims.userID, session: sessionID)
      } else {
        try database.user(id: claims.userID).map { (user: $0, hasSession: true) }
      }
    guard let (user, hasSession) = found, user.deletedAt == nil else {
      throw GoTrueAPIError(
        status: 403, code: .userNotFound, message: "User from sub claim in JWT does not exist")
    }
    guard hasSession else {
      throw GoTrueAPIError(
        status: 403, code: .sessionNotFound,
        message: "Session from session_id claim in JWT does not exist")
    }
    if user.isBanned(at: now) {
      throw GoTrueAPIError(status: 403, code: .userBanned, message: "User is banned")
    }
    try claims.checkAudience()
    return (claims, user)
  }

  /// `POST /logout?scope=`.
  @concurrent
  public func logout(accessToken: String, scope: GoTrueLogoutScope) async throws(GoTrueFailure) {
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let (claims, user) = try authorize(accessToken, database, now: now)
      try audit(database, .user(user), .logout, now: now)
      let session = claims.sessionID ?? ""
      switch scope {
      case .local:
        try database.deleteSession(session)
      case .global:
        try database.deleteSessions(ofUser: claims.userID)
      case .others:
        try database.deleteSessions(ofUser: claims.userID, except: session)
      }
    }
  }

  /// `GET /user`.
  @concurrent
  public func user(accessToken: String) async throws(GoTrueFailure) -> GoTrueUser {
    let now = nowMillis
    return try withDatabase { database throws(GoTrueAPIError) in
      try authorize(accessToken, database, now: now).user.goTrueUser
    }
  }

  /// Checks that `bearer` is an admin's token: signed with the engine's keys, unexpired, with a
  /// role GoTrue lets administer (`service_role`, `supabase_admin`), and a live session if it
  /// names one. Otherwise 403 `bad_jwt`, `not_admin` or `session_not_found`.
  package func authorizeAdmin(_ bearer: String) throws(GoTrueFailure) {
    let now = nowMillis
    let claims: [String: JSONValue]
    do {
      // An admin key may come without `exp`, as GoTrue takes it (test suites mint them so);
      // a user's token may not.
      claims = try JSONWebToken.verify(
        bearer, keys: tokenKeys, now: Int(now / 1_000), expiryRequired: false)
    } catch {
      throw .api(error)
    }
    guard let role = claims["role"]?.stringValue, Self.adminRoles.contains(role),
      !JSONWebToken.isFirebaseToken(claims)
    else {
      throw .api(GoTrueAPIError(status: 403, code: .notAdmin, message: "User not allowed"))
    }
    guard let sessionID = claims["session_id"]?.stringValue else { return }
    let exists = try withDatabase { database throws(GoTrueAPIError) in
      try database.session(id: sessionID) != nil
    }
    guard exists else {
      throw .api(
        GoTrueAPIError(
          status: 403, code: .sessionNotFound,
          message: "Session from session_id claim in JWT does not exist"))
    }
  }

  /// The roles whose tokens may use the admin API (GoTrue's `JWT_ADMIN_ROLES`).
  static let adminRoles: Set<String> = ["service_role", "supabase_admin"]

  /// An API key for `role` (`anon` or `service_role`), as `supabase start` prints them: a
  /// JWT with the role, valid until 2100, signed as access tokens are (with the secret, or
  /// with the signing key of `JWT_KEYS`, as the Supabase CLI signs its keys when it has
  /// signing keys). The same key always gives a key that verifies, so an app configured once
  /// keeps working.
  package func apiKey(role: String) -> String {
    JSONWebToken.sign(
      [
        "iss": .string(configuration.issuer ?? "authflow"), "role": .string(role),
        "exp": .number(4_102_444_800),
      ], key: tokenKeys.signing)
  }

  package func limiter(_ database: EngineAccounts, _ now: Int64) -> RateLimiter {
    RateLimiter(database: database, configuration: configuration, codeKey: secrets.codes, now: now)
  }
}
