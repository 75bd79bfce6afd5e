import AuthCrypto
import GoTrue

extension EmbeddedGoTrue {
  /// Starts a session for `user`: a row in `sessions`, a refresh token stored as its hash, and
  /// a signed access token.
  func createSession(for user: UserRecord, in database: SQLiteDatabase, now: Int64) throws
    -> GoTrueSession
  {
    let sessionID = random.uuidString()
    try database.run(
      "INSERT INTO sessions (id, user_id, created_at, refreshed_at) VALUES (?, ?, ?, ?)",
      .text(sessionID), .text(user.id), .integer(now), .integer(now))
    let refreshToken = try issueRefreshToken(sessionID: sessionID, parent: nil, database, now)
    return makeSession(user: user, sessionID: sessionID, refreshToken: refreshToken, now: now)
  }

  func makeSession(user: UserRecord, sessionID: String, refreshToken: String, now: Int64)
    -> GoTrueSession
  {
    let issuedAt = Int(now / 1_000)
    let lifetime = Int(configuration.accessTokenLifetime)
    let claims = AccessTokenClaims(
      exp: issuedAt + lifetime, iat: issuedAt, sub: user.id, email: user.email,
      sessionID: sessionID)
    return GoTrueSession(
      accessToken: AccessToken.sign(claims, secret: secrets.jwt), expiresIn: lifetime,
      expiresAt: issuedAt + lifetime, refreshToken: refreshToken, user: user.goTrueUser)
  }

  /// Stores `token` (only its hash) as a refresh token of the session; a new session's first
  /// token is random.
  private func issueRefreshToken(
    sessionID: String, parent: Int64?, _ database: SQLiteDatabase, _ now: Int64,
    token: String? = nil
  ) throws -> String {
    let token = token ?? random.token(byteCount: 32)
    try database.run(
      """
      INSERT INTO refresh_tokens (session_id, token_hash, parent_id, created_at)
      VALUES (?, ?, ?, ?)
      """, .text(sessionID), .blob(SHA256.hash(token)), parent.map(SQLiteValue.integer) ?? .null,
      .integer(now))
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
    enum Outcome: Sendable {
      case rotated(GoTrueSession)
      case reused
    }
    let reuseInterval = Int64(configuration.refreshTokenReuseInterval * 1_000)
    let outcome = try answer(spending: \.token) { database, now -> Outcome in
      guard refreshToken.utf8.count >= 12 else {
        throw GoTrueAPIError(
          status: 400, code: .validationFailed, message: "Refresh token is not valid")
      }
      guard let row = try refreshTokenRow(refreshToken, database) else {
        throw GoTrueAPIError(
          status: 400, code: .refreshTokenNotFound,
          message: "Invalid Refresh Token: Refresh Token Not Found")
      }
      guard let user = try database.user(id: row.user) else {
        throw GoTrueAPIError(status: 400, code: .sessionNotFound, message: "Session not found")
      }
      if let revokedAt = row.revokedAt {
        guard now - revokedAt <= reuseInterval,
          let active = try activeSuccessor(of: refreshToken, in: row.session, database)
        else {
          try database.run("DELETE FROM sessions WHERE id = ?", .text(row.session))
          return .reused
        }
        return .rotated(
          makeSession(user: user, sessionID: row.session, refreshToken: active, now: now))
      }
      try database.run(
        "UPDATE refresh_tokens SET revoked = 1, revoked_at = ? WHERE id = ?", .integer(now),
        .integer(row.id))
      try database.run(
        "UPDATE sessions SET refreshed_at = ? WHERE id = ?", .integer(now), .text(row.session))
      let next = try issueRefreshToken(
        sessionID: row.session, parent: row.id, database, now, token: successor(of: refreshToken))
      return .rotated(makeSession(user: user, sessionID: row.session, refreshToken: next, now: now))
    }
    switch outcome {
    case .rotated(let session):
      return session
    case .reused:
      throw .api(
        GoTrueAPIError(
          status: 400, code: .refreshTokenAlreadyUsed,
          message: "Invalid Refresh Token: Already Used"))
    }
  }

  private struct RefreshTokenRow {
    var id: Int64
    var session: String
    var revokedAt: Int64?
    var user: String
  }

  private func refreshTokenRow(_ token: String, _ database: SQLiteDatabase) throws
    -> RefreshTokenRow?
  {
    try database.first(
      """
      SELECT refresh_tokens.id, refresh_tokens.session_id,
        CASE WHEN refresh_tokens.revoked THEN coalesce(refresh_tokens.revoked_at, 0) END,
        sessions.user_id
      FROM refresh_tokens JOIN sessions ON sessions.id = refresh_tokens.session_id
      WHERE token_hash = ?
      """, .blob(SHA256.hash(token)),
      row: {
        RefreshTokenRow(
          id: $0.int(0), session: $0.text(1), revokedAt: $0.optionalInt(2), user: $0.text(3))
      })
  }

  /// The token of `session` that `token` was rotated into, following later rotations to the one
  /// still active; `nil` when the chain leaves the session or runs out.
  private func activeSuccessor(of token: String, in session: String, _ database: SQLiteDatabase)
    throws -> String?
  {
    var current = token
    for _ in 0..<16 {
      current = successor(of: current)
      guard let row = try refreshTokenRow(current, database), row.session == session else {
        return nil
      }
      if row.revokedAt == nil { return current }
    }
    return nil
  }

  /// The claims of `accessToken` if it is valid and its session still exists.
  func authorize(_ accessToken: String, _ database: SQLiteDatabase, now: Int64) throws
    -> AccessTokenClaims
  {
    let claims = try AccessToken.verify(accessToken, secret: secrets.jwt, now: Int(now / 1_000))
    let exists = try database.first(
      "SELECT 1 FROM sessions WHERE id = ? AND user_id = ?", .text(claims.sessionID),
      .text(claims.sub), row: { _ in true })
    guard exists == true else {
      throw GoTrueAPIError(
        status: 403, code: .sessionNotFound,
        message: "Session from session_id claim in JWT does not exist")
    }
    return claims
  }

  /// `POST /logout?scope=`.
  @concurrent
  public func logout(accessToken: String, scope: GoTrueLogoutScope) async throws(GoTrueFailure) {
    try answer(spending: nil) { database, now in
      let claims = try authorize(accessToken, database, now: now)
      switch scope {
      case .local:
        try database.run("DELETE FROM sessions WHERE id = ?", .text(claims.sessionID))
      case .global:
        try database.run("DELETE FROM sessions WHERE user_id = ?", .text(claims.sub))
      case .others:
        try database.run(
          "DELETE FROM sessions WHERE user_id = ? AND id != ?", .text(claims.sub),
          .text(claims.sessionID))
      }
    }
  }

  /// `GET /user`.
  @concurrent
  public func user(accessToken: String) async throws(GoTrueFailure) -> GoTrueUser {
    let now = nowMillis
    return try withDatabase { database in
      let claims = try authorize(accessToken, database, now: now)
      guard let user = try database.user(id: claims.sub) else {
        throw GoTrueAPIError(status: 404, code: "user_not_found", message: "User not found")
      }
      return user.goTrueUser
    }
  }

  func limiter(_ database: SQLiteDatabase, _ now: Int64) -> RateLimiter {
    RateLimiter(database: database, configuration: configuration, codeKey: secrets.codes, now: now)
  }
}
