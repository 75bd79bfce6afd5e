import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// TOTP factors and their challenges on PostgreSQL: GoTrue's `auth.mfa_factors` and
/// `auth.mfa_challenges`, with what GoTrue has no column for in authflow's tables beside them.
extension PostgresConnection {
  // MARK: Factors and challenges

  private static let factorColumns = """
    f.id::text, authflow.user_name(f.user_id), coalesce(f.friendly_name, ''), f.status::text,
    coalesce(f.secret, ''), e.last_used_step, authflow.ms(f.created_at),
    authflow.ms(f.updated_at), authflow.ms(f.last_challenged_at)
    """

  private static func factor(_ row: PostgresRow) throws(AccountStoreError) -> FactorRecord {
    FactorRecord(
      id: try row.text(0), userID: try row.text(1), friendlyName: try row.text(2),
      status: try row.text(3),
      sealedSecret: Data(base64Encoded: try row.text(4)).map(Array.init) ?? [],
      lastUsedStep: try row.optionalInt64(5), createdAt: try row.int64(6),
      updatedAt: try row.int64(7), lastChallengedAt: try row.optionalInt64(8))
  }

  func factors(ofUser userID: String) throws(AccountStoreError) -> [FactorRecord] {
    try rows(
      """
      SELECT \(Self.factorColumns) FROM auth.mfa_factors f
      LEFT JOIN authflow.factor_extras e ON e.factor_id = f.id
      WHERE f.user_id = authflow.user_key($1) AND f.factor_type = 'totp'
      ORDER BY f.created_at, f.id
      """, .text(userID), row: Self.factor)
  }

  func factor(id: String, ofUser userID: String) throws(AccountStoreError) -> FactorRecord? {
    try first(
      """
      SELECT \(Self.factorColumns) FROM auth.mfa_factors f
      LEFT JOIN authflow.factor_extras e ON e.factor_id = f.id
      WHERE f.id = authflow.key($1) AND f.user_id = authflow.user_key($2) AND f.factor_type = 'totp'
      \(lock("f"))
      """, .text(id), .text(userID), row: Self.factor)
  }

  func insertFactor(
    id: String, userID: String, friendlyName: String, sealedSecret: [UInt8], now: Int64
  ) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at,
        updated_at, secret)
      VALUES ($1::uuid, authflow.user_key($2), $3, 'totp', 'unverified', authflow.ts($5),
        authflow.ts($5), $4)
      """, .text(id), .text(userID), .text(friendlyName),
      .text(Data(sealedSecret).base64EncodedString()), .integer(now))
  }

  func updateFactor(_ id: String, _ changes: [FactorChange]) throws(AccountStoreError) {
    var assignments: [String] = []
    var values: [PostgresValue] = [.text(id)]
    for change in changes {
      switch change {
      case .friendlyName(let name):
        values.append(.text(name))
        assignments.append("friendly_name = $\(values.count)")
      case .verified:
        assignments.append("status = 'verified'")
      case .lastChallengedAt(let time):
        values.append(.integer(time))
        assignments.append("last_challenged_at = authflow.ts($\(values.count))")
      case .updatedAt(let time):
        values.append(.integer(time))
        assignments.append("updated_at = authflow.ts($\(values.count))")
      case .lastUsedStep(let step):
        try query(
          """
          INSERT INTO authflow.factor_extras (factor_id, last_used_step) VALUES ($1::uuid, $2)
          ON CONFLICT (factor_id) DO UPDATE SET last_used_step = excluded.last_used_step
          """, .text(id), .integer(step))
      }
    }
    guard !assignments.isEmpty else { return }
    try query(
      "UPDATE auth.mfa_factors SET \(assignments.joined(separator: ", ")) WHERE id = authflow.key($1)",
      values)
  }

  func deleteFactor(_ id: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.mfa_factors WHERE id = authflow.key($1)", .text(id))
  }

  func deleteAbandonedFactors(olderThan expiry: Int64, now: Int64) throws(AccountStoreError) {
    try query(
      """
      DELETE FROM auth.mfa_factors f WHERE f.status <> 'verified' AND f.factor_type = 'totp'
        AND authflow.ms(f.created_at) + $1 < $2
        AND NOT EXISTS (SELECT 1 FROM auth.mfa_challenges c WHERE c.factor_id = f.id)
      """, .integer(expiry), .integer(now))
  }

  func deleteUnverifiedFactors(ofUser userID: String) throws(AccountStoreError) {
    try query(
      """
      DELETE FROM auth.mfa_factors
      WHERE user_id = authflow.user_key($1) AND status = 'unverified' AND factor_type = 'totp'
      """, .text(userID))
  }

  func insertChallenge(id: String, factorID: String, ipAddress: String, now: Int64)
    throws(AccountStoreError)
  {
    try query(
      """
      INSERT INTO auth.mfa_challenges (id, factor_id, created_at, ip_address)
      VALUES ($1::uuid, authflow.key($2), authflow.ts($4), authflow.inet_or_none($3))
      """, .text(id), .text(factorID), .text(ipAddress), .integer(now))
    try query(
      "INSERT INTO authflow.challenge_extras (challenge_id, ip_address) VALUES ($1::uuid, $2)",
      .text(id), .text(ipAddress))
    try updateFactor(factorID, [.lastChallengedAt(now)])
  }

  func challenge(id: String, ofFactor factorID: String) throws(AccountStoreError)
    -> StoredChallenge?
  {
    try first(
      """
      SELECT authflow.ms(c.verified_at), coalesce(e.ip_address, host(c.ip_address)),
        authflow.ms(c.created_at), coalesce(e.failed_attempts, 0)
      FROM auth.mfa_challenges c LEFT JOIN authflow.challenge_extras e ON e.challenge_id = c.id
      WHERE c.id = authflow.key($1) AND c.factor_id = authflow.key($2)
      \(lock("c"))
      """, .text(id), .text(factorID)
    ) { row throws(AccountStoreError) in
      StoredChallenge(
        id: id, verifiedAt: try row.optionalInt64(0), ipAddress: try row.text(1),
        createdAt: try row.int64(2), failedAttempts: Int(try row.int64(3)))
    }
  }

  func deleteChallenge(_ id: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.mfa_challenges WHERE id = authflow.key($1)", .text(id))
  }

  func countWrongCode(challenge id: String) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO authflow.challenge_extras (challenge_id, ip_address, failed_attempts)
      SELECT id, host(ip_address), 1 FROM auth.mfa_challenges WHERE id = authflow.key($1)
      ON CONFLICT (challenge_id) DO UPDATE
        SET failed_attempts = authflow.challenge_extras.failed_attempts + 1
      """, .text(id))
  }

  func markVerified(challenge id: String, at now: Int64) throws(AccountStoreError) {
    try query(
      "UPDATE auth.mfa_challenges SET verified_at = authflow.ts($2) WHERE id = authflow.key($1)",
      .text(id), .integer(now))
  }
}
