import GoTrue

/// A row of `flow_states`: a PKCE flow begun by a request with a challenge, waiting for the
/// client that holds its verifier.
package struct StoredFlowState: Sendable {
  package var id: String
  package var userID: String?
  package var challenge: PKCEChallenge
  /// The flow it belongs to (a sign-up, a recovery, …).
  package var method: SignInMethod
  package var createdAt: Int64
  /// When its auth code was issued, once the link was followed.
  package var codeIssuedAt: Int64?

  static let columns = """
    id, user_id, code_challenge, code_challenge_method, authentication_method, created_at,
    auth_code_issued_at
    """

}

extension StoredFlowState {
  init(_ row: SQLiteStatement) {
    id = row.text(0)
    userID = row.optionalText(1)
    challenge = PKCEChallenge(
      challenge: row.text(2), method: PKCEChallenge.Method(rawValue: row.text(3)) ?? .s256)
    method = SignInMethod(rawValue: row.text(4)) ?? .emailSignup
    createdAt = row.int(5)
    codeIssuedAt = row.optionalInt(6)
  }
}

extension Accounts {
  /// Begins flow `id` of user `userID` with `challenge`, forgetting flows begun before
  /// `forgetBefore`.
  package func insertFlowState(
    id: String, userID: String, challenge: PKCEChallenge, method: SignInMethod, now: Int64,
    forgettingBefore forgetBefore: Int64
  ) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertFlowState(
          id: id, userID: userID, challenge: challenge, method: method, now: now,
          forgettingBefore: forgetBefore)
      }
    }
    try run("DELETE FROM flow_states WHERE created_at < ?", .integer(forgetBefore))
    try run(
      """
      INSERT INTO flow_states (id, user_id, code_challenge, code_challenge_method,
        authentication_method, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """, .text(id), .text(userID), .text(challenge.challenge),
      .text(challenge.method.rawValue), .text(method.rawValue), .integer(now), .integer(now))
  }

  /// The newest flow of user `userID` for `method`.
  package func newestFlowState(ofUser userID: String, method: SignInMethod)
    throws(Failure) -> StoredFlowState?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.newestFlowState(ofUser: userID, method: method)
      }
    }
    return try first(
      """
      SELECT \(StoredFlowState.columns) FROM flow_states
      WHERE user_id = ? AND authentication_method = ?
      ORDER BY created_at DESC, rowid DESC LIMIT 1
      """, .text(userID), .text(method.rawValue), row: StoredFlowState.init)
  }

  /// Keeps the hash of flow `id`'s auth code, issued at `now`.
  package func setAuthCode(hash: [UInt8], ofFlow id: String, now: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.setAuthCode(hash: hash, ofFlow: id, now: now)
      }
    }
    try run(
      """
      UPDATE flow_states SET auth_code_hash = ?, auth_code_issued_at = ?, updated_at = ?
      WHERE id = ?
      """, .blob(hash), .integer(now), .integer(now), .text(id))
  }

  /// The flow whose auth code's hash is `hash`.
  package func flowState(authCodeHash hash: [UInt8]) throws(Failure)
    -> StoredFlowState?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.flowState(authCodeHash: hash)
      }
    }
    return try first(
      "SELECT \(StoredFlowState.columns) FROM flow_states WHERE auth_code_hash = ?", .blob(hash),
      row: StoredFlowState.init)
  }

  /// Ends flow `id`.
  package func deleteFlowState(_ id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.deleteFlowState(id) }
    }
    try run("DELETE FROM flow_states WHERE id = ?", .text(id))
  }
}
