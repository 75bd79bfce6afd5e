/// What the limits keep so that every process sharing the store counts alike: token buckets
/// (`rate_limits`) and the last email to each address (`email_sends`), both under names that
/// are keyed hashes, never addresses.
extension Accounts {
  /// Bucket `name`'s tokens and when they were counted, if it has a row.
  package func bucket(_ name: String) throws(Failure) -> (
    tokens: Double, updatedAt: Int64
  )? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.bucket(name) }
    }
    return try first(
      "SELECT tokens, updated_at FROM rate_limits WHERE bucket = ?", .text(name),
      row: { (tokens: $0.double(0), updatedAt: $0.int(1)) })
  }

  /// Keeps `tokens` in bucket `name`, counted at `now`.
  package func setBucket(_ name: String, tokens: Double, now: Int64) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.setBucket(name, tokens: tokens, now: now)
      }
    }
    try run(
      """
      INSERT INTO rate_limits (bucket, tokens, updated_at) VALUES (?, ?, ?)
      ON CONFLICT (bucket) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
      """, .text(name), .real(tokens), .integer(now))
  }

  /// Forgets the buckets named `prefix` followed by more, untouched since `time`.
  package func deleteBuckets(prefixed prefix: String, untouchedSince time: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteBuckets(prefixed: prefix, untouchedSince: time)
      }
    }
    guard let last = prefix.unicodeScalars.last,
      let next = Unicode.Scalar(last.value + 1)
    else { return }
    let upper = String(prefix.unicodeScalars.dropLast()) + String(next)
    try run(
      "DELETE FROM rate_limits WHERE bucket > ? AND bucket < ? AND updated_at < ?",
      .text(prefix), .text(upper), .integer(time))
  }

  /// When the last email to the address hashed as `addressHash` went.
  package func lastEmail(toAddressHash addressHash: [UInt8]) throws(Failure) -> Int64? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.lastEmail(toAddressHash: addressHash)
      }
    }
    return try first(
      "SELECT last_sent_at FROM email_sends WHERE address_hash = ?", .blob(addressHash),
      row: { $0.int(0) })
  }

  /// Records an email to the address hashed as `addressHash` at `now`, forgetting those sent
  /// before `forgetBefore`.
  package func recordEmail(
    toAddressHash addressHash: [UInt8], now: Int64, forgettingBefore forgetBefore: Int64
  ) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.recordEmail(
          toAddressHash: addressHash, now: now, forgettingBefore: forgetBefore)
      }
    }
    try run(
      """
      INSERT INTO email_sends (address_hash, last_sent_at) VALUES (?, ?)
      ON CONFLICT (address_hash) DO UPDATE SET last_sent_at = excluded.last_sent_at
      """, .blob(addressHash), .integer(now))
    try run("DELETE FROM email_sends WHERE last_sent_at < ?", .integer(forgetBefore))
  }
}
