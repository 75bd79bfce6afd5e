/// The Firebase surface's emailed codes and pending second steps on PostgreSQL
/// (`authflow.oob_codes`, `authflow.mfa_pending_sign_ins`).
extension PostgresConnection {
  // MARK: The Firebase surface's codes and pending second steps

  func insertOutOfBandCode(_ code: NewOutOfBandCode, forgettingExpiredBefore forgetBefore: Int64)
    throws(AccountStoreError)
  {
    try query("DELETE FROM authflow.oob_codes WHERE expires_at < $1", .integer(forgetBefore))
    try query(
      """
      INSERT INTO authflow.oob_codes (code_hash, request_type, email, new_email, user_id,
        continue_url, created_at, expires_at)
      VALUES ($1, $2, $3, $4, authflow.user_key($5), $6, $7, $8)
      """, .bytes(code.codeHash), .text(code.requestType), .text(code.email),
      .optional(code.newEmail), .optional(code.userID), .optional(code.continueURL),
      .integer(code.createdAt), .integer(code.expiresAt))
  }

  func outOfBandCode(hash: [UInt8]) throws(AccountStoreError) -> StoredOutOfBandCode? {
    try first(
      """
      SELECT id, request_type, email, new_email, authflow.user_name(user_id), continue_url, expires_at, used_at
      FROM authflow.oob_codes WHERE code_hash = $1
      \(lock())
      """, .bytes(hash)
    ) { row throws(AccountStoreError) in
      StoredOutOfBandCode(
        id: try row.int64(0), requestType: try row.text(1), email: try row.text(2),
        newEmail: try row.optionalText(3), userID: try row.optionalText(4),
        continueURL: try row.optionalText(5), expiresAt: try row.int64(6),
        usedAt: try row.optionalInt64(7))
    }
  }

  func markOutOfBandCodeUsed(_ id: Int64, at now: Int64) throws(AccountStoreError) {
    try query(
      "UPDATE authflow.oob_codes SET used_at = $2 WHERE id = $1", .integer(id), .integer(now))
  }

  func insertPendingSignIn(
    credentialHash: [UInt8], userID: String, provider: String, now: Int64,
    forgettingBefore forgetBefore: Int64
  ) throws(AccountStoreError) {
    try query(
      "DELETE FROM authflow.mfa_pending_sign_ins WHERE created_at < $1", .integer(forgetBefore))
    try query(
      """
      INSERT INTO authflow.mfa_pending_sign_ins (credential_hash, user_id, provider, created_at)
      VALUES ($1, authflow.user_key($2), $3, $4)
      """, .bytes(credentialHash), .text(userID), .text(provider), .integer(now))
  }

  func pendingSignIn(credentialHash: [UInt8]) throws(AccountStoreError) -> PendingSignIn? {
    try first(
      """
      SELECT authflow.user_name(user_id), provider, created_at, failed_attempts
      FROM authflow.mfa_pending_sign_ins WHERE credential_hash = $1
      \(lock())
      """, .bytes(credentialHash)
    ) { row throws(AccountStoreError) in
      PendingSignIn(
        userID: try row.text(0), provider: try row.text(1), createdAt: try row.int64(2),
        failedAttempts: Int(try row.int64(3)))
    }
  }

  func countWrongCode(pendingSignIn credentialHash: [UInt8]) throws(AccountStoreError) {
    try query(
      """
      UPDATE authflow.mfa_pending_sign_ins SET failed_attempts = failed_attempts + 1
      WHERE credential_hash = $1
      """, .bytes(credentialHash))
  }

  func deletePendingSignIn(credentialHash: [UInt8]) throws(AccountStoreError) {
    try query(
      "DELETE FROM authflow.mfa_pending_sign_ins WHERE credential_hash = $1",
      .bytes(credentialHash))
  }
}
