/// Emailed codes on PostgreSQL (`authflow.codes`): keyed hashes, spent ones kept until they
/// expire.
extension PostgresConnection {
  // MARK: Codes

  func replaceCode(_ code: NewCode, forgettingExpiredBefore forgetBefore: Int64)
    throws(AccountStoreError)
  {
    try deleteUnusedCodes(ofUser: code.userID, kinds: [code.kind])
    try query(
      "DELETE FROM authflow.codes WHERE user_id = authflow.user_key($1) AND expires_at < $2",
      .text(code.userID), .integer(forgetBefore))
    try query(
      """
      INSERT INTO authflow.codes (user_id, kind, token_hash, link_hash, created_at, expires_at)
      VALUES (authflow.user_key($1), $2, $3, $4, $5, $6)
      """, .text(code.userID), .text(code.kind.rawValue), .bytes(code.codeHash),
      code.linkHash.map(PostgresValue.bytes) ?? .null, .integer(code.createdAt),
      .integer(code.expiresAt))
  }

  private static let codeColumns = "id, authflow.user_name(user_id), kind, expires_at, used_at"

  private static func code(_ row: PostgresRow) throws(AccountStoreError) -> StoredCode {
    StoredCode(
      id: try row.int64(0), userID: try row.text(1),
      kind: CodeKind(rawValue: try row.text(2)) ?? .confirmation, expiresAt: try row.int64(3),
      usedAt: try row.optionalInt64(4))
  }

  func code(ofUser userID: String, kind: CodeKind, codeHash: [UInt8]) throws(AccountStoreError)
    -> StoredCode?
  {
    try first(
      """
      SELECT \(Self.codeColumns) FROM authflow.codes
      WHERE user_id = authflow.user_key($1) AND kind = $2 AND token_hash = $3
      ORDER BY id DESC LIMIT 1
      \(lock())
      """, .text(userID), .text(kind.rawValue), .bytes(codeHash), row: Self.code)
  }

  func code(linkHash: [UInt8]) throws(AccountStoreError) -> StoredCode? {
    try first(
      """
      SELECT \(Self.codeColumns) FROM authflow.codes WHERE link_hash = $1
      ORDER BY id DESC LIMIT 1
      \(lock())
      """, .bytes(linkHash), row: Self.code)
  }

  func markCodeUsed(_ id: Int64, at now: Int64) throws(AccountStoreError) {
    try query("UPDATE authflow.codes SET used_at = $2 WHERE id = $1", .integer(id), .integer(now))
  }

  func deleteUnusedCodes(ofUser userID: String, kinds: [CodeKind]) throws(AccountStoreError) {
    try query(
      """
      DELETE FROM authflow.codes
      WHERE user_id = authflow.user_key($1) AND kind = ANY($2::text[]) AND used_at IS NULL
      """, .text(userID), .text(PostgresArray.text(kinds.map(\.rawValue))))
  }
}
