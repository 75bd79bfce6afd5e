import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Codes, factors, challenges, PKCE flows, budgets, secrets and the Firebase surface's rows on
/// PostgreSQL: GoTrue's tables where GoTrue has them (`auth.mfa_factors`, `auth.mfa_challenges`,
/// `auth.flow_state`), authflow's own beside them.
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

extension PostgresValue {
  /// A flag, as text PostgreSQL reads for a `boolean`.
  static func bool(_ value: Bool) -> PostgresValue {
    .text(value ? "true" : "false")
  }
}

/// PostgreSQL's text form of arrays, for `= ANY($n::text[])`.
enum PostgresArray {
  /// `values` as a text array literal, each element quoted.
  static func text(_ values: [String]) -> String {
    let quoted = values.map { value in
      var text = "\""
      for character in value {
        if character == "\\" || character == "\"" { text.append("\\") }
        text.append(character)
      }
      return text + "\""
    }
    return "{" + quoted.joined(separator: ",") + "}"
  }
}
