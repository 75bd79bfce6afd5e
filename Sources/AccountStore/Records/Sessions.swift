/// How a user proved who they are, for the `amr` claim of their session's tokens.
package enum SignInMethod: String, Sendable {
  /// An email and password.
  case password
  /// An emailed code or link.
  case otp
  /// A session of the Firebase surface. Its refresh tokens renew only there, and GoTrue's
  /// routes take none of its ID tokens: each surface accepts only the tokens it issues, so an
  /// account the Firebase rules let sign in (an unconfirmed email) gets no GoTrue session.
  case firebase
  /// An anonymous sign-in (`POST /signup` with neither email nor phone).
  case anonymous
  /// A signed Sign in with Solana or Ethereum message (`POST /token?grant_type=web3`).
  case web3
  /// A PKCE exchange of a sign-up confirmation's link.
  case emailSignup = "email/signup"
  /// A PKCE exchange of a recovery link.
  case recovery
  /// A PKCE exchange of a magic link.
  case magicLink = "magiclink"
  /// A PKCE exchange of an email change's link.
  case emailChange = "email_change"
  /// A PKCE exchange of an invitation's link.
  case invite
  /// An OAuth client's exchange of an authorization code (the OAuth 2.1 server's
  /// `POST /oauth/token`).
  case oauthAuthorizationCode = "oauth_provider/authorization_code"
}

/// A row of `sessions`: one signed-in device of a user.
package struct StoredSession: Sendable {
  package var id: String
  package var userID: String
  /// How the session began.
  package var method: SignInMethod
  package var createdAt: Int64
  /// When a refresh token of it was last rotated (when it began, if never).
  package var refreshedAt: Int64
  /// `aal1`, or `aal2` once a factor was proved in it.
  package var aal: String
  /// The factor that raised it to `aal2`.
  package var factorID: String?
  /// The Firebase surface's sign-in provider of the session (`password`, `custom`, …).
  package var firebaseProvider: String?
  /// The Firebase surface's claims of a custom token's session, as JSON text.
  package var firebaseClaims: String?
  /// The OAuth client whose session it is (one of the OAuth 2.1 server's), if any.
  package var oauthClientID: String?
  /// The scopes that client was granted, separated by spaces.
  package var scopes: String?

  static let columns = """
    sessions.id, sessions.user_id, sessions.amr_method, sessions.created_at,
    coalesce(sessions.refreshed_at, sessions.created_at), sessions.aal, sessions.factor_id,
    sessions.firebase_provider, sessions.firebase_claims, sessions.oauth_client_id,
    sessions.scopes
    """

}

extension StoredSession {
  /// The session in `row`'s columns from `offset` on, in ``columns``' order.
  init(_ row: SQLiteStatement, offset: Int32 = 0) {
    id = row.text(offset)
    userID = row.text(offset + 1)
    method = SignInMethod(rawValue: row.text(offset + 2)) ?? .password
    createdAt = row.int(offset + 3)
    refreshedAt = row.int(offset + 4)
    aal = row.text(offset + 5)
    factorID = row.optionalText(offset + 6)
    firebaseProvider = row.optionalText(offset + 7)
    firebaseClaims = row.optionalText(offset + 8)
    oauthClientID = row.optionalText(offset + 9)
    scopes = row.optionalText(offset + 10)
  }
}

/// A method a session's user proved after the session began (a row of `session_amr`), such as
/// `totp` after a factor's code was verified.
package struct ProvedMethod: Equatable, Sendable {
  /// The method, as the `amr` claim names it (`totp`).
  package var method: String
  /// When it was last proved, in Unix milliseconds.
  package var provedAt: Int64

  package init(method: String, provedAt: Int64) {
    self.method = method
    self.provedAt = provedAt
  }
}

/// A row of `refresh_tokens`, found by its token's hash, with its session.
package struct StoredRefreshToken: Sendable {
  package var id: Int64
  /// The hash it is found by.
  package var hash: [UInt8]
  /// When it was rotated or revoked; `nil` while it is the session's active token.
  package var revokedAt: Int64?
  package var session: StoredSession
}

extension Accounts {
  // MARK: Sessions

  /// Adds a session of user `userID` begun by `method` at `now`.
  package func insertSession(id: String, userID: String, method: SignInMethod, now: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertSession(id: id, userID: userID, method: method, now: now)
      }
    }
    try run(
      """
      INSERT INTO sessions (id, user_id, created_at, refreshed_at, amr_method)
      VALUES (?, ?, ?, ?, ?)
      """, .text(id), .text(userID), .integer(now), .integer(now), .text(method.rawValue))
  }

  /// Session `id`, if it exists (and belongs to `userID`, when given).
  package func session(id: String, ofUser userID: String? = nil) throws(Failure)
    -> StoredSession?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.session(id: id).flatMap { userID == nil || $0.userID == userID ? $0 : nil }
      }
    }
    let session = try first(
      "SELECT \(StoredSession.columns) FROM sessions WHERE id = ?", .text(id),
      row: { StoredSession($0) })
    guard let session, userID == nil || session.userID == userID else { return nil }
    return session
  }

  /// The most recent refresh of any session of user `userID` (a sign-in counts as one).
  package func lastRefresh(ofUser userID: String) throws(Failure) -> Int64? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.lastRefresh(ofUser: userID)
      }
    }
    return try first(
      "SELECT max(refreshed_at) FROM sessions WHERE user_id = ?", .text(userID),
      row: { $0.optionalInt(0) }) ?? nil
  }

  /// Ends session `id`, with its refresh tokens and proofs.
  package func deleteSession(_ id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.deleteSession(id) }
    }
    try run("DELETE FROM sessions WHERE id = ?", .text(id))
  }

  /// Ends user `userID`'s sessions, but for `kept` (an empty text keeps none).
  package func deleteSessions(ofUser userID: String, except kept: String? = nil)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteSessions(ofUser: userID, except: kept)
      }
    }
    try run(
      "DELETE FROM sessions WHERE user_id = ? AND id != ?", .text(userID), .text(kept ?? ""))
  }

  /// Ends user `userID`'s sessions that have not proved a second factor (`aal1`).
  package func deleteSessionsBelowAAL2(ofUser userID: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteSessionsBelowAAL2(ofUser: userID)
      }
    }
    try run("DELETE FROM sessions WHERE user_id = ? AND aal < 'aal2'", .text(userID))
  }

  /// Ends user `userID`'s sessions last refreshed before `time` (Firebase's `validSince`).
  package func deleteSessions(ofUser userID: String, refreshedBefore time: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteSessions(ofUser: userID, refreshedBefore: time)
      }
    }
    try run(
      "DELETE FROM sessions WHERE user_id = ? AND refreshed_at < ?", .text(userID),
      .integer(time))
  }

  /// Marks session `id` refreshed at `now`.
  package func markRefreshed(session id: String, at now: Int64) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.markRefreshed(session: id, at: now)
      }
    }
    try run("UPDATE sessions SET refreshed_at = ? WHERE id = ?", .integer(now), .text(id))
  }

  /// Raises session `id` to `aal2` by factor `factorID`.
  package func raiseToAAL2(session id: String, by factorID: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.raiseToAAL2(session: id, by: factorID)
      }
    }
    try run(
      "UPDATE sessions SET aal = 'aal2', factor_id = ? WHERE id = ?", .text(factorID), .text(id))
  }

  /// Keeps the Firebase surface's provider and claims of session `id`.
  package func setFirebaseSignIn(session id: String, provider: String?, claims: String?)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.setFirebaseSignIn(session: id, provider: provider, claims: claims)
      }
    }
    try run(
      "UPDATE sessions SET firebase_provider = ?, firebase_claims = ? WHERE id = ?",
      .optional(provider), .optional(claims), .text(id))
  }

  /// Downgrades the sessions factor `factorID` raised to aal2 (GoTrue's
  /// `DowngradeSessionsToAAL1`): their `totp` method goes, and they are aal1 again.
  package func downgradeSessions(raisedBy factorID: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.downgradeSessions(raisedBy: factorID)
      }
    }
    try run(
      """
      DELETE FROM session_amr WHERE method = 'totp'
        AND session_id IN (SELECT id FROM sessions WHERE factor_id = ?)
      """, .text(factorID))
    try run(
      "UPDATE sessions SET aal = 'aal1', factor_id = NULL WHERE factor_id = ?", .text(factorID))
  }

  // MARK: Proofs

  /// The methods proved in session `id` after it began, oldest first.
  package func provedMethods(inSession id: String) throws(Failure) -> [ProvedMethod] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.provedMethods(inSession: id)
      }
    }
    return try query(
      "SELECT method, created_at FROM session_amr WHERE session_id = ? ORDER BY created_at, method",
      .text(id), row: { ProvedMethod(method: $0.text(0), provedAt: $0.int(1)) })
  }

  /// Records that `method` was proved in session `id` at `now` (proving it again moves its
  /// time).
  package func recordProof(of method: String, inSession id: String, now: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.recordProof(of: method, inSession: id, now: now)
      }
    }
    try run(
      """
      INSERT INTO session_amr (session_id, method, created_at) VALUES (?, ?, ?)
      ON CONFLICT (session_id, method) DO UPDATE SET created_at = excluded.created_at
      """, .text(id), .text(method), .integer(now))
  }

  // MARK: Refresh tokens

  /// Adds a refresh token of session `sessionID`, kept as `hash` only; `parent` is the token
  /// it was rotated from.
  package func insertRefreshToken(
    hash: [UInt8], session sessionID: String, parent: StoredRefreshToken?, now: Int64
  ) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertRefreshToken(
          hash: hash, session: sessionID, parentHash: parent?.hash, now: now)
      }
    }
    try run(
      """
      INSERT INTO refresh_tokens (session_id, token_hash, parent_id, created_at)
      VALUES (?, ?, ?, ?)
      """, .text(sessionID), .blob(hash), .optional(parent?.id), .integer(now))
  }

  /// The refresh token whose hash is `hash`, with its session.
  package func refreshToken(hash: [UInt8]) throws(Failure) -> StoredRefreshToken? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.refreshToken(hash: hash)
      }
    }
    return try first(
      """
      SELECT refresh_tokens.id,
        CASE WHEN refresh_tokens.revoked THEN coalesce(refresh_tokens.revoked_at, 0) END,
        \(StoredSession.columns)
      FROM refresh_tokens JOIN sessions ON sessions.id = refresh_tokens.session_id
      WHERE token_hash = ?
      """, .blob(hash),
      row: { row in
        StoredRefreshToken(
          id: row.int(0), hash: hash, revokedAt: row.optionalInt(1),
          session: StoredSession(row, offset: 2))
      })
  }

  /// Revokes refresh token `id` at `now` (it was rotated).
  package func revokeRefreshToken(_ token: StoredRefreshToken, at now: Int64) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.revokeRefreshToken(hash: token.hash, at: now)
      }
    }
    try run(
      "UPDATE refresh_tokens SET revoked = 1, revoked_at = ? WHERE id = ?", .integer(now),
      .integer(token.id))
  }

  /// Revokes every active refresh token of session `sessionID` at `now`.
  package func revokeRefreshTokens(ofSession sessionID: String, at now: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.revokeRefreshTokens(ofSession: sessionID, at: now)
      }
    }
    try run(
      "UPDATE refresh_tokens SET revoked = 1, revoked_at = ? WHERE session_id = ? AND revoked = 0",
      .integer(now), .text(sessionID))
  }
}
