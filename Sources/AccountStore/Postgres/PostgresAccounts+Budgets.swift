/// Budgets and the store's own secrets on PostgreSQL (`authflow.rate_limits`,
/// `authflow.email_sends`, `authflow.meta`).
extension PostgresConnection {
  // MARK: Budgets

  func bucket(_ name: String) throws(AccountStoreError) -> (tokens: Double, updatedAt: Int64)? {
    try first(
      "SELECT tokens, updated_at FROM authflow.rate_limits WHERE bucket = $1 \(lock())",
      .text(name)
    ) { row throws(AccountStoreError) in (try row.double(0), try row.int64(1)) }
  }

  func setBucket(_ name: String, tokens: Double, now: Int64) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO authflow.rate_limits (bucket, tokens, updated_at) VALUES ($1, $2, $3)
      ON CONFLICT (bucket) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
      """, .text(name), .double(tokens), .integer(now))
  }

  func deleteBuckets(prefixed prefix: String, untouchedSince time: Int64)
    throws(AccountStoreError)
  {
    try query(
      """
      DELETE FROM authflow.rate_limits
      WHERE starts_with(bucket, $1) AND bucket <> $1 AND updated_at < $2
      """, .text(prefix), .integer(time))
  }

  func lastEmail(toAddressHash addressHash: [UInt8]) throws(AccountStoreError) -> Int64? {
    try first(
      "SELECT last_sent_at FROM authflow.email_sends WHERE address_hash = $1 \(lock())",
      .bytes(addressHash)
    ) { row throws(AccountStoreError) in try row.int64(0) }
  }

  func recordEmail(
    toAddressHash addressHash: [UInt8], now: Int64, forgettingBefore forgetBefore: Int64
  ) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO authflow.email_sends (address_hash, last_sent_at) VALUES ($1, $2)
      ON CONFLICT (address_hash) DO UPDATE SET last_sent_at = excluded.last_sent_at
      """, .bytes(addressHash), .integer(now))
    try query(
      "DELETE FROM authflow.email_sends WHERE last_sent_at < $1", .integer(forgetBefore))
  }

  // MARK: Secrets

  func secret(_ key: String) throws(AccountStoreError) -> [UInt8]? {
    try first("SELECT value FROM authflow.meta WHERE key = $1", .text(key)) {
      row throws(AccountStoreError) in try row.bytes(0)
    }
  }

  func setSecret(_ key: String, _ value: [UInt8]) throws(AccountStoreError) {
    try query("INSERT INTO authflow.meta (key, value) VALUES ($1, $2)", .text(key), .bytes(value))
  }

  func decoyHashes() throws(AccountStoreError) -> [String] {
    try rows("SELECT value FROM authflow.meta WHERE key LIKE 'decoy_hash%'") {
      row throws(AccountStoreError) in String(decoding: try row.bytes(0), as: UTF8.self)
    }
  }

  func addDecoyHash(_ decoy: String, cost: Int) throws(AccountStoreError) -> String {
    try query(
      "INSERT INTO authflow.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
      .text("decoy_hash:\(cost)"), .bytes(Array(decoy.utf8)))
    return try first(
      "SELECT value FROM authflow.meta WHERE key = $1", .text("decoy_hash:\(cost)")
    ) { row throws(AccountStoreError) in String(decoding: try row.bytes(0), as: UTF8.self) }
      ?? decoy
  }
}
