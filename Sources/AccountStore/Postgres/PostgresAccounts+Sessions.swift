/// Sessions on PostgreSQL: GoTrue's `auth.sessions`, its `auth.mfa_amr_claims` for every method
/// proved (the first one too, as GoTrue records it), `auth.refresh_tokens` holding the hash of
/// each token (never the token), and how the session began (`authflow.session_extras`).
extension PostgresConnection {
  /// ``StoredSession``'s columns on GoTrue's tables.
  static let sessionColumns = """
    s.id::text, authflow.user_name(s.user_id),
    coalesce(x.amr_method, (SELECT c.authentication_method FROM auth.mfa_amr_claims c
      WHERE c.session_id = s.id AND c.authentication_method <> 'totp'
      ORDER BY c.created_at LIMIT 1), 'password'),
    coalesce(authflow.ms(s.created_at), 0),
    coalesce(authflow.ms(s.refreshed_at AT TIME ZONE 'UTC'), authflow.ms(s.created_at), 0),
    coalesce(s.aal::text, 'aal1'), s.factor_id::text, x.firebase_provider, x.firebase_claims,
    s.oauth_client_id::text, s.scopes
    """

  func insertSession(id: String, userID: String, method: SignInMethod, now: Int64)
    throws(AccountStoreError)
  {
    try query(
      """
      INSERT INTO auth.sessions (id, user_id, created_at, updated_at, aal, refreshed_at)
      VALUES ($1::uuid, authflow.user_key($2), authflow.ts($3), authflow.ts($3), 'aal1',
        authflow.ts($3) AT TIME ZONE 'UTC')
      """, .text(id), .text(userID), .integer(now))
    try query(
      "INSERT INTO authflow.session_extras (session_id, amr_method) VALUES ($1::uuid, $2)",
      .text(id), .text(method.rawValue))
    try recordProof(of: method.rawValue, inSession: id, now: now)
  }

  func session(id: String) throws(AccountStoreError) -> StoredSession? {
    try first(
      """
      SELECT \(Self.sessionColumns) FROM auth.sessions s
      LEFT JOIN authflow.session_extras x ON x.session_id = s.id
      WHERE s.id = authflow.key($1)
      \(lock("s"))
      """, .text(id)
    ) { row throws(AccountStoreError) in try StoredSession(row, offset: 0) }
  }

  func lastRefresh(ofUser userID: String) throws(AccountStoreError) -> Int64? {
    try first(
      """
      SELECT max(coalesce(authflow.ms(refreshed_at AT TIME ZONE 'UTC'), authflow.ms(created_at)))
      FROM auth.sessions WHERE user_id = authflow.user_key($1)
      """, .text(userID)
    ) { row throws(AccountStoreError) in try row.optionalInt64(0) } ?? nil
  }

  func deleteSession(_ id: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.sessions WHERE id = authflow.key($1)", .text(id))
  }

  func deleteSessions(ofUser userID: String, except kept: String?) throws(AccountStoreError) {
    try query(
      """
      DELETE FROM auth.sessions WHERE user_id = authflow.user_key($1)
        AND id IS DISTINCT FROM authflow.key($2)
      """, .text(userID), .text(kept ?? ""))
  }

  func deleteSessionsBelowAAL2(ofUser userID: String) throws(AccountStoreError) {
    try query(
      "DELETE FROM auth.sessions WHERE user_id = authflow.user_key($1) AND coalesce(aal, 'aal1') < 'aal2'",
      .text(userID))
  }

  func deleteSessions(ofUser userID: String, refreshedBefore time: Int64)
    throws(AccountStoreError)
  {
    try query(
      """
      DELETE FROM auth.sessions WHERE user_id = authflow.user_key($1)
        AND coalesce(authflow.ms(refreshed_at AT TIME ZONE 'UTC'), authflow.ms(created_at)) < $2
      """, .text(userID), .integer(time))
  }

  func markRefreshed(session id: String, at now: Int64) throws(AccountStoreError) {
    try query(
      """
      UPDATE auth.sessions SET refreshed_at = authflow.ts($2) AT TIME ZONE 'UTC',
        updated_at = authflow.ts($2)
      WHERE id = authflow.key($1)
      """, .text(id), .integer(now))
  }

  func raiseToAAL2(session id: String, by factorID: String) throws(AccountStoreError) {
    try query(
      "UPDATE auth.sessions SET aal = 'aal2', factor_id = authflow.key($2) WHERE id = authflow.key($1)",
      .text(id), .text(factorID))
  }

  func setFirebaseSignIn(session id: String, provider: String?, claims: String?)
    throws(AccountStoreError)
  {
    try query(
      """
      INSERT INTO authflow.session_extras (session_id, amr_method, firebase_provider,
        firebase_claims)
      VALUES ($1::uuid, 'firebase', $2, $3)
      ON CONFLICT (session_id) DO UPDATE SET firebase_provider = excluded.firebase_provider,
        firebase_claims = excluded.firebase_claims
      """, .text(id), .optional(provider), .optional(claims))
  }

  func downgradeSessions(raisedBy factorID: String) throws(AccountStoreError) {
    try query(
      """
      DELETE FROM auth.mfa_amr_claims WHERE authentication_method = 'totp'
        AND session_id IN (SELECT id FROM auth.sessions WHERE factor_id = authflow.key($1))
      """, .text(factorID))
    try query(
      "UPDATE auth.sessions SET aal = 'aal1', factor_id = NULL WHERE factor_id = authflow.key($1)",
      .text(factorID))
  }

  func provedMethods(inSession id: String) throws(AccountStoreError) -> [ProvedMethod] {
    try rows(
      """
      SELECT c.authentication_method, authflow.ms(c.updated_at) FROM auth.mfa_amr_claims c
      LEFT JOIN authflow.session_extras x ON x.session_id = c.session_id
      WHERE c.session_id = authflow.key($1)
        AND c.authentication_method IS DISTINCT FROM x.amr_method
        AND (x.amr_method IS NOT NULL OR c.authentication_method = 'totp')
      ORDER BY c.updated_at, c.authentication_method
      """, .text(id)
    ) { row throws(AccountStoreError) in
      ProvedMethod(method: try row.text(0), provedAt: try row.int64(1))
    }
  }

  func recordProof(of method: String, inSession id: String, now: Int64)
    throws(AccountStoreError)
  {
    try query(
      """
      INSERT INTO auth.mfa_amr_claims (id, session_id, created_at, updated_at,
        authentication_method)
      VALUES (gen_random_uuid(), $1::uuid, authflow.ts($3), authflow.ts($3), $2)
      ON CONFLICT (session_id, authentication_method)
        DO UPDATE SET updated_at = excluded.updated_at
      """, .text(id), .text(method), .integer(now))
  }

  /// Adds a refresh token by its hash; `parentHash` names the one it was rotated from. Rows are
  /// found by their random hashes, never by their serial ids: the newest ids share the index's
  /// last page, which every insert writes, and a SERIALIZABLE read of that page would make
  /// every concurrent rotation a conflict.
  func insertRefreshToken(
    hash: [UInt8], session sessionID: String, parentHash: [UInt8]?, now: Int64
  ) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO auth.refresh_tokens (instance_id, token, user_id, revoked, created_at,
        updated_at, parent, session_id)
      SELECT '00000000-0000-0000-0000-000000000000', $1, s.user_id::text, false, authflow.ts($4),
        authflow.ts($4), $3, s.id
      FROM auth.sessions s WHERE s.id = authflow.key($2)
      """, .text(PostgresHex.encode(hash)), .text(sessionID),
      .optional(parentHash.map(PostgresHex.encode)), .integer(now))
  }

  func refreshToken(hash: [UInt8]) throws(AccountStoreError) -> StoredRefreshToken? {
    try first(
      """
      SELECT r.id, CASE WHEN r.revoked THEN coalesce(authflow.ms(r.updated_at), 0) END,
        \(Self.sessionColumns)
      FROM auth.refresh_tokens r JOIN auth.sessions s ON s.id = r.session_id
      LEFT JOIN authflow.session_extras x ON x.session_id = s.id
      WHERE r.token = $1
      \(lock("r"))
      """, .text(PostgresHex.encode(hash))
    ) { row throws(AccountStoreError) in
      StoredRefreshToken(
        id: try row.int64(0), hash: hash, revokedAt: try row.optionalInt64(1),
        session: try StoredSession(row, offset: 2))
    }
  }

  func revokeRefreshToken(hash: [UInt8], at now: Int64) throws(AccountStoreError) {
    try query(
      "UPDATE auth.refresh_tokens SET revoked = true, updated_at = authflow.ts($2) WHERE token = $1",
      .text(PostgresHex.encode(hash)), .integer(now))
  }

  func revokeRefreshTokens(ofSession sessionID: String, at now: Int64) throws(AccountStoreError) {
    try query(
      """
      UPDATE auth.refresh_tokens SET revoked = true, updated_at = authflow.ts($2)
      WHERE session_id = authflow.key($1) AND NOT coalesce(revoked, false)
      """, .text(sessionID), .integer(now))
  }
}

extension StoredSession {
  /// The session in `row`'s columns from `offset` on, read from
  /// ``PostgresConnection/sessionColumns``.
  init(_ row: PostgresRow, offset: Int) throws(AccountStoreError) {
    id = try row.text(offset)
    userID = try row.text(offset + 1)
    method = SignInMethod(rawValue: try row.text(offset + 2)) ?? .password
    createdAt = try row.int64(offset + 3)
    refreshedAt = try row.int64(offset + 4)
    aal = try row.text(offset + 5)
    factorID = try row.optionalText(offset + 6)
    firebaseProvider = try row.optionalText(offset + 7)
    firebaseClaims = try row.optionalText(offset + 8)
    oauthClientID = try row.optionalText(offset + 9)
    scopes = try row.optionalText(offset + 10)
  }
}

/// Bytes as lower-case hexadecimal text, as hashes are kept in GoTrue's text columns.
enum PostgresHex {
  static func encode(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
