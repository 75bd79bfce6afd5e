/// The Firebase surface's emailed codes (`oob_codes`): each found by a keyed hash of the code,
/// for an address and, when it concerns one, an account.
package struct StoredOutOfBandCode: Sendable {
  package var id: Int64
  /// What the code does (Identity Toolkit's `requestType`).
  package var requestType: String
  /// The address it concerns.
  package var email: String
  /// The address a change of email moves the account to.
  package var newEmail: String?
  package var userID: String?
  /// Where the link leads once used.
  package var continueURL: String?
  package var expiresAt: Int64
  package var usedAt: Int64?
}

/// A code to keep.
package struct NewOutOfBandCode: Sendable {
  package var codeHash: [UInt8]
  package var requestType: String
  package var email: String
  package var newEmail: String?
  package var userID: String?
  package var continueURL: String?
  package var createdAt: Int64
  package var expiresAt: Int64

  package init(
    codeHash: [UInt8], requestType: String, email: String, newEmail: String?, userID: String?,
    continueURL: String?, createdAt: Int64, expiresAt: Int64
  ) {
    self.codeHash = codeHash
    self.requestType = requestType
    self.email = email
    self.newEmail = newEmail
    self.userID = userID
    self.continueURL = continueURL
    self.createdAt = createdAt
    self.expiresAt = expiresAt
  }
}

extension Accounts {
  /// Keeps `code`, forgetting codes that expired before `forgetBefore`.
  package func insertOutOfBandCode(
    _ code: NewOutOfBandCode, forgettingExpiredBefore forgetBefore: Int64
  )
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertOutOfBandCode(code, forgettingExpiredBefore: forgetBefore)
      }
    }
    try run("DELETE FROM oob_codes WHERE expires_at < ?", .integer(forgetBefore))
    try run(
      """
      INSERT INTO oob_codes (code_hash, request_type, email, new_email, user_id, continue_url,
        created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """, .blob(code.codeHash), .text(code.requestType), .text(code.email),
      .optional(code.newEmail), .optional(code.userID), .optional(code.continueURL),
      .integer(code.createdAt), .integer(code.expiresAt))
  }

  /// The code whose hash is `hash`, spent or not.
  package func outOfBandCode(hash: [UInt8]) throws(Failure) -> StoredOutOfBandCode? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.outOfBandCode(hash: hash)
      }
    }
    return try first(
      """
      SELECT id, request_type, email, new_email, user_id, continue_url, expires_at, used_at
      FROM oob_codes WHERE code_hash = ?
      """, .blob(hash),
      row: { row in
        StoredOutOfBandCode(
          id: row.int(0), requestType: row.text(1), email: row.text(2),
          newEmail: row.optionalText(3), userID: row.optionalText(4),
          continueURL: row.optionalText(5), expiresAt: row.int(6), usedAt: row.optionalInt(7))
      })
  }

  /// Spends code `id` at `now`.
  package func markOutOfBandCodeUsed(_ id: Int64, at now: Int64) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.markOutOfBandCodeUsed(id, at: now)
      }
    }
    try run("UPDATE oob_codes SET used_at = ? WHERE id = ?", .integer(now), .integer(id))
  }
}

/// A sign-in of the Firebase surface waiting for its second factor (`mfa_pending_sign_ins`),
/// found by the hash of its pending credential.
package struct PendingSignIn: Sendable {
  package var userID: String
  /// The provider the first step signed in with.
  package var provider: String
  package var createdAt: Int64
  /// Wrong codes tried against it.
  package var failedAttempts: Int
}

extension Accounts {
  /// Keeps a pending sign-in of user `userID`, forgetting those begun before `forgetBefore`.
  package func insertPendingSignIn(
    credentialHash: [UInt8], userID: String, provider: String, now: Int64,
    forgettingBefore forgetBefore: Int64
  ) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertPendingSignIn(
          credentialHash: credentialHash, userID: userID, provider: provider, now: now,
          forgettingBefore: forgetBefore)
      }
    }
    try run("DELETE FROM mfa_pending_sign_ins WHERE created_at < ?", .integer(forgetBefore))
    try run(
      """
      INSERT INTO mfa_pending_sign_ins (credential_hash, user_id, provider, created_at)
      VALUES (?, ?, ?, ?)
      """, .blob(credentialHash), .text(userID), .text(provider), .integer(now))
  }

  /// The pending sign-in whose credential hashes to `credentialHash`.
  package func pendingSignIn(credentialHash: [UInt8]) throws(Failure)
    -> PendingSignIn?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.pendingSignIn(credentialHash: credentialHash)
      }
    }
    return try first(
      """
      SELECT user_id, provider, created_at, failed_attempts FROM mfa_pending_sign_ins
      WHERE credential_hash = ?
      """, .blob(credentialHash),
      row: {
        PendingSignIn(
          userID: $0.text(0), provider: $0.text(1), createdAt: $0.int(2),
          failedAttempts: Int($0.int(3)))
      })
  }

  /// Counts one wrong code against the pending sign-in.
  package func countWrongCode(pendingSignIn credentialHash: [UInt8]) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.countWrongCode(pendingSignIn: credentialHash)
      }
    }
    try run(
      """
      UPDATE mfa_pending_sign_ins SET failed_attempts = failed_attempts + 1
      WHERE credential_hash = ?
      """, .blob(credentialHash))
  }

  /// Ends the pending sign-in.
  package func deletePendingSignIn(credentialHash: [UInt8]) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deletePendingSignIn(credentialHash: credentialHash)
      }
    }
    try run("DELETE FROM mfa_pending_sign_ins WHERE credential_hash = ?", .blob(credentialHash))
  }
}
