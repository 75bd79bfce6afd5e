import GoTrue

/// PKCE flows on PostgreSQL: GoTrue's `auth.flow_state`, the auth code kept as its keyed hash.
extension PostgresConnection {
  // MARK: PKCE flows

  private static let flowColumns = """
    id::text, authflow.user_name(user_id), coalesce(code_challenge, ''), coalesce(code_challenge_method::text, 's256'),
    authentication_method, coalesce(authflow.ms(created_at), 0), authflow.ms(auth_code_issued_at)
    """

  private static func flow(_ row: PostgresRow) throws(AccountStoreError) -> StoredFlowState {
    StoredFlowState(
      id: try row.text(0), userID: try row.optionalText(1),
      challenge: PKCEChallenge(
        challenge: try row.text(2),
        method: PKCEChallenge.Method(rawValue: try row.text(3)) ?? .s256),
      method: SignInMethod(rawValue: try row.text(4)) ?? .emailSignup,
      createdAt: try row.int64(5), codeIssuedAt: try row.optionalInt64(6))
  }

  func insertFlowState(
    id: String, userID: String, challenge: PKCEChallenge, method: SignInMethod, now: Int64,
    forgettingBefore forgetBefore: Int64
  ) throws(AccountStoreError) {
    try query(
      "DELETE FROM auth.flow_state WHERE created_at < authflow.ts($1)", .integer(forgetBefore))
    try query(
      """
      INSERT INTO auth.flow_state (id, user_id, code_challenge, code_challenge_method,
        provider_type, authentication_method, created_at, updated_at)
      VALUES ($1::uuid, authflow.user_key($2), $3, $4::auth.code_challenge_method, 'email', $5,
        authflow.ts($6), authflow.ts($6))
      """, .text(id), .text(userID), .text(challenge.challenge), .text(challenge.method.rawValue),
      .text(method.rawValue), .integer(now))
  }

  func newestFlowState(ofUser userID: String, method: SignInMethod) throws(AccountStoreError)
    -> StoredFlowState?
  {
    // The transaction that made a row orders rows made in one millisecond.
    try first(
      """
      SELECT \(Self.flowColumns) FROM auth.flow_state
      WHERE user_id = authflow.user_key($1) AND authentication_method = $2
      ORDER BY created_at DESC, xmin::text::bigint DESC LIMIT 1
      \(lock())
      """, .text(userID), .text(method.rawValue), row: Self.flow)
  }

  func setAuthCode(hash: [UInt8], ofFlow id: String, now: Int64) throws(AccountStoreError) {
    try query(
      """
      UPDATE auth.flow_state SET auth_code = $1, auth_code_issued_at = authflow.ts($3),
        updated_at = authflow.ts($3)
      WHERE id = authflow.key($2)
      """, .text(PostgresHex.encode(hash)), .text(id), .integer(now))
  }

  func flowState(authCodeHash hash: [UInt8]) throws(AccountStoreError) -> StoredFlowState? {
    try first(
      "SELECT \(Self.flowColumns) FROM auth.flow_state WHERE auth_code = $1 \(lock())",
      .text(PostgresHex.encode(hash)), row: Self.flow)
  }

  func deleteFlowState(_ id: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.flow_state WHERE id = authflow.key($1)", .text(id))
  }
}
