/// The store's own secrets, made with it: rows of `meta`.
extension Accounts {
  /// The secret under `key` (`jwt_secret`, `code_key`), if the store has one.
  package func secret(_ key: String) throws(Failure) -> [UInt8]? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.secret(key) }
    }
    return try first("SELECT value FROM meta WHERE key = ?", .text(key), row: { $0.blob(0) })
  }

  /// Keeps `value` under `key`, which must be new.
  package func setSecret(_ key: String, _ value: [UInt8]) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.setSecret(key, value) }
    }
    try run("INSERT INTO meta (key, value) VALUES (?, ?)", .text(key), .blob(value))
  }

  /// The decoy hashes the store has, one per bcrypt cost it has run at.
  package func decoyHashes() throws(Failure) -> [String] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.decoyHashes() }
    }
    return try query(
      "SELECT value FROM meta WHERE key LIKE 'decoy_hash%'",
      row: { String(decoding: $0.blob(0), as: UTF8.self) })
  }

  /// Keeps `decoy` as the decoy at `cost` unless the store has one for it already (another
  /// process may have made one meanwhile), and answers the one kept.
  package func addDecoyHash(_ decoy: String, cost: Int) throws(Failure) -> String {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.addDecoyHash(decoy, cost: cost)
      }
    }
    try run(
      "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", .text("decoy_hash:\(cost)"),
      .blob(Array(decoy.utf8)))
    return try first(
      "SELECT value FROM meta WHERE key = ?", .text("decoy_hash:\(cost)"),
      row: { String(decoding: $0.blob(0), as: UTF8.self) }) ?? decoy
  }
}
