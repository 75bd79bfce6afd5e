/// The kinds of stored code: one per email kind, and two for an email change (one for each
/// address).
package enum CodeKind: String, Sendable, CaseIterable {
  case confirmation
  case recovery
  case magicLink = "magiclink"
  case emailChangeCurrent = "email_change_current"
  case emailChangeNew = "email_change_new"
  /// An invitation, which GoTrue keeps as the user's confirmation code.
  case invite
  /// The nonce of `GET /reauthenticate`, checked by a password change and never by `/verify`.
  case reauthentication
  /// A code sent by SMS that confirms the phone or signs it in (GoTrue's `sms` type).
  case sms
  /// A code sent by SMS to a new number (GoTrue's `phone_change`).
  case phoneChange = "phone_change"

  /// The kinds mailed to the account's own address, which a new address voids.
  package static let sentToTheAddress: [CodeKind] = [.confirmation, .recovery, .magicLink]
}

/// A row of `one_time_tokens`: an emailed code, kept as keyed hashes of the code and of its
/// link's token, never as plaintext.
package struct StoredCode: Sendable {
  package var id: Int64
  package var userID: String
  package var kind: CodeKind
  package var expiresAt: Int64
  /// When it was spent; a spent code stays until it expires, so a used link is told apart from
  /// a wrong one.
  package var usedAt: Int64?

  static let columns = "id, user_id, kind, expires_at, used_at"

}

extension StoredCode {
  init(_ row: SQLiteStatement) {
    id = row.int(0)
    userID = row.text(1)
    kind = CodeKind(rawValue: row.text(2)) ?? .confirmation
    expiresAt = row.int(3)
    usedAt = row.optionalInt(4)
  }
}

/// A code to keep.
package struct NewCode: Sendable {
  package var userID: String
  package var kind: CodeKind
  /// The keyed hash of the code a user types.
  package var codeHash: [UInt8]
  /// The keyed hash of its link's token, when it has a link.
  package var linkHash: [UInt8]?
  package var createdAt: Int64
  package var expiresAt: Int64

  package init(
    userID: String, kind: CodeKind, codeHash: [UInt8], linkHash: [UInt8]?, createdAt: Int64,
    expiresAt: Int64
  ) {
    self.userID = userID
    self.kind = kind
    self.codeHash = codeHash
    self.linkHash = linkHash
    self.createdAt = createdAt
    self.expiresAt = expiresAt
  }
}

extension Accounts {
  /// Keeps `code`, which replaces any unspent code of its user and kind; codes of the user that
  /// expired before `forgetBefore` are forgotten.
  package func replaceCode(_ code: NewCode, forgettingExpiredBefore forgetBefore: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.replaceCode(code, forgettingExpiredBefore: forgetBefore)
      }
    }
    try deleteUnusedCodes(ofUser: code.userID, kinds: [code.kind])
    try run(
      "DELETE FROM one_time_tokens WHERE user_id = ? AND expires_at < ?", .text(code.userID),
      .integer(forgetBefore))
    try run(
      """
      INSERT INTO one_time_tokens (user_id, kind, token_hash, link_hash, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?)
      """, .text(code.userID), .text(code.kind.rawValue), .blob(code.codeHash),
      code.linkHash.map(SQLiteValue.blob) ?? .null, .integer(code.createdAt),
      .integer(code.expiresAt))
  }

  /// The newest code of user `userID` and `kind` whose hash is `codeHash`, spent or not.
  package func code(ofUser userID: String, kind: CodeKind, codeHash: [UInt8])
    throws(Failure) -> StoredCode?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.code(ofUser: userID, kind: kind, codeHash: codeHash)
      }
    }
    return try first(
      """
      SELECT \(StoredCode.columns) FROM one_time_tokens
      WHERE user_id = ? AND kind = ? AND token_hash = ? ORDER BY id DESC LIMIT 1
      """, .text(userID), .text(kind.rawValue), .blob(codeHash), row: StoredCode.init)
  }

  /// The newest code whose link's hash is `linkHash`, spent or not.
  package func code(linkHash: [UInt8]) throws(Failure) -> StoredCode? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.code(linkHash: linkHash)
      }
    }
    return try first(
      """
      SELECT \(StoredCode.columns) FROM one_time_tokens
      WHERE link_hash = ? ORDER BY id DESC LIMIT 1
      """, .blob(linkHash), row: StoredCode.init)
  }

  /// Spends code `id` at `now`.
  package func markCodeUsed(_ id: Int64, at now: Int64) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.markCodeUsed(id, at: now)
      }
    }
    try run("UPDATE one_time_tokens SET used_at = ? WHERE id = ?", .integer(now), .integer(id))
  }

  /// Voids user `userID`'s unspent codes (of `kinds`, or of every kind).
  package func deleteUnusedCodes(ofUser userID: String, kinds: [CodeKind] = CodeKind.allCases)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteUnusedCodes(ofUser: userID, kinds: kinds)
      }
    }
    let marks = kinds.map { _ in "?" }.joined(separator: ", ")
    try run(
      "DELETE FROM one_time_tokens WHERE user_id = ? AND kind IN (\(marks)) AND used_at IS NULL",
      [.text(userID)] + kinds.map { .text($0.rawValue) })
  }

  /// The user whose pending email change goes to `email`.
  package func user(newEmail email: String) throws(Failure) -> UserRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.user(newEmail: email) }
    }
    return try first(
      "SELECT \(UserRecord.columns) FROM users WHERE new_email = ?", .text(email),
      row: UserRecord.init)
  }
}
