import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A row of `mfa_factors`: a TOTP factor, its secret sealed under a key of the store's.
package struct FactorRecord: Sendable {
  package var id: String
  package var userID: String
  package var friendlyName: String
  package var status: String
  /// The secret, sealed (``EmbeddedGoTrue/sealTOTPSecret(_:factorID:)``); never plaintext.
  package var sealedSecret: [UInt8]
  /// The time step of the last code accepted, which no code may reuse (RFC 6238 §5.2).
  package var lastUsedStep: Int64?
  package var createdAt: Int64
  package var updatedAt: Int64
  package var lastChallengedAt: Int64?

  package static let columns = """
    id, user_id, friendly_name, status, secret, last_used_step, created_at, updated_at,
    last_challenged_at
    """

  /// Whether a first code was verified with it.
  package var isVerified: Bool { status == "verified" }

  /// The factor as GoTrue shows it.
  package var goTrueFactor: GoTrueFactor {
    GoTrueFactor(
      id: id, friendlyName: friendlyName, factorType: "totp", status: status,
      createdAt: Date(millis: createdAt), updatedAt: Date(millis: updatedAt),
      lastChallengedAt: lastChallengedAt.map(Date.init(millis:)))
  }

  /// A column of ``UserRecord/columns``: the user's factors as a JSON array of
  /// `[id, friendly_name, status, created_at, updated_at, last_challenged_at]`, so every read
  /// of a user has them, as GoTrue loads a user's factors with the user.
  package static let userColumn = """
    (SELECT json_group_array(json_array(id, friendly_name, status, created_at, updated_at,
      last_challenged_at)) FROM mfa_factors WHERE mfa_factors.user_id = users.id)
    """

  /// The factors in ``userColumn``'s text, oldest first.
  package static func factors(inUserColumn text: String) -> [GoTrueFactor] {
    guard text != "[]",
      let rows = try? JSONDecoder().decode([[JSONValue]].self, from: Data(text.utf8))
    else { return [] }
    let factors = rows.compactMap { row -> (Int64, GoTrueFactor)? in
      guard row.count == 6, let id = row[0].stringValue, let status = row[2].stringValue,
        let created = row[3].numberValue, let updated = row[4].numberValue
      else { return nil }
      let factor = GoTrueFactor(
        id: id, friendlyName: row[1].stringValue, status: status,
        createdAt: Date(millis: Int64(created)), updatedAt: Date(millis: Int64(updated)),
        lastChallengedAt: row[5].numberValue.map { Date(millis: Int64($0)) })
      return (Int64(created), factor)
    }
    return factors.sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }.map(\.1)
  }
}

extension FactorRecord {
  package init(_ row: SQLiteStatement) {
    id = row.text(0)
    userID = row.text(1)
    friendlyName = row.text(2)
    status = row.text(3)
    sealedSecret = row.blob(4)
    lastUsedStep = row.optionalInt(5)
    createdAt = row.int(6)
    updatedAt = row.int(7)
    lastChallengedAt = row.optionalInt(8)
  }
}

extension Accounts {
  /// The factors of user `userID`, oldest first.
  package func factors(ofUser userID: String) throws(Failure) -> [FactorRecord] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.factors(ofUser: userID) }
    }
    return try query(
      "SELECT \(FactorRecord.columns) FROM mfa_factors WHERE user_id = ? ORDER BY created_at, id",
      .text(userID), row: FactorRecord.init)
  }

  /// Factor `id` if it belongs to user `userID` (GoTrue's `FindOwnedFactorByID`).
  package func factor(id: String, ofUser userID: String) throws(Failure)
    -> FactorRecord?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.factor(id: id, ofUser: userID)
      }
    }
    return try first(
      "SELECT \(FactorRecord.columns) FROM mfa_factors WHERE id = ? AND user_id = ?", .text(id),
      .text(userID), row: FactorRecord.init)
  }

  /// Adds an unverified TOTP factor of user `userID`, its secret sealed.
  package func insertFactor(
    id: String, userID: String, friendlyName: String, sealedSecret: [UInt8], now: Int64
  ) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertFactor(
          id: id, userID: userID, friendlyName: friendlyName, sealedSecret: sealedSecret, now: now)
      }
    }
    try run(
      """
      INSERT INTO mfa_factors (id, user_id, friendly_name, factor_type, status, secret,
        created_at, updated_at)
      VALUES (?, ?, ?, 'totp', 'unverified', ?, ?, ?)
      """, .text(id), .text(userID), .text(friendlyName), .blob(sealedSecret), .integer(now),
      .integer(now))
  }

  /// Makes `changes` to factor `id`.
  package func updateFactor(_ id: String, _ changes: [FactorChange]) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.updateFactor(id, changes)
      }
    }
    guard !changes.isEmpty else { return }
    let assignments = changes.map(\.assignment)
    try run(
      "UPDATE mfa_factors SET \(assignments.map(\.sql).joined(separator: ", ")) WHERE id = ?",
      assignments.map(\.value) + [.text(id)])
  }

  /// Removes factor `id` with its challenges.
  package func deleteFactor(_ id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.deleteFactor(id) }
    }
    try run("DELETE FROM mfa_factors WHERE id = ?", .text(id))
  }

  /// Removes every factor never verified that was made more than `expiry` milliseconds before
  /// `now` and has no challenge (GoTrue's cleanup of abandoned enrolments).
  package func deleteAbandonedFactors(olderThan expiry: Int64, now: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteAbandonedFactors(olderThan: expiry, now: now)
      }
    }
    try run(
      """
      DELETE FROM mfa_factors WHERE status != 'verified' AND created_at + ? < ?
        AND NOT EXISTS (SELECT 1 FROM mfa_challenges WHERE factor_id = mfa_factors.id)
      """, .integer(expiry), .integer(now))
  }

  /// Removes user `userID`'s unverified factors.
  package func deleteUnverifiedFactors(ofUser userID: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteUnverifiedFactors(ofUser: userID)
      }
    }
    try run(
      """
      DELETE FROM mfa_factors
      WHERE user_id = ? AND status = 'unverified' AND factor_type = 'totp'
      """, .text(userID))
  }

  // MARK: Challenges

  /// Adds challenge `id` of factor `factorID`, asked from `ipAddress`, and marks the factor
  /// challenged.
  package func insertChallenge(id: String, factorID: String, ipAddress: String, now: Int64)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertChallenge(id: id, factorID: factorID, ipAddress: ipAddress, now: now)
      }
    }
    try run(
      "INSERT INTO mfa_challenges (id, factor_id, ip_address, created_at) VALUES (?, ?, ?, ?)",
      .text(id), .text(factorID), .text(ipAddress), .integer(now))
    try updateFactor(factorID, [.lastChallengedAt(now)])
  }

  /// Challenge `id` of factor `factorID`.
  package func challenge(id: String, ofFactor factorID: String) throws(Failure)
    -> StoredChallenge?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.challenge(id: id, ofFactor: factorID)
      }
    }
    return try first(
      """
      SELECT verified_at, ip_address, created_at, failed_attempts FROM mfa_challenges
      WHERE id = ? AND factor_id = ?
      """, .text(id), .text(factorID),
      row: {
        StoredChallenge(
          id: id, verifiedAt: $0.optionalInt(0), ipAddress: $0.text(1), createdAt: $0.int(2),
          failedAttempts: Int($0.int(3)))
      })
  }

  /// Removes challenge `id`.
  package func deleteChallenge(_ id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.deleteChallenge(id) }
    }
    try run("DELETE FROM mfa_challenges WHERE id = ?", .text(id))
  }

  /// Counts one wrong code against challenge `id`.
  package func countWrongCode(challenge id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.countWrongCode(challenge: id)
      }
    }
    try run(
      "UPDATE mfa_challenges SET failed_attempts = failed_attempts + 1 WHERE id = ?", .text(id))
  }

  /// Marks challenge `id` answered at `now`.
  package func markVerified(challenge id: String, at now: Int64) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.markVerified(challenge: id, at: now)
      }
    }
    try run("UPDATE mfa_challenges SET verified_at = ? WHERE id = ?", .integer(now), .text(id))
  }
}

/// One change to a factor's row.
package enum FactorChange: Sendable {
  case friendlyName(String)
  case verified
  case lastUsedStep(Int64)
  case lastChallengedAt(Int64)
  case updatedAt(Int64)

  var assignment: (sql: String, value: SQLiteValue) {
    switch self {
    case .friendlyName(let name): ("friendly_name = ?", .text(name))
    case .verified: ("status = ?", .text("verified"))
    case .lastUsedStep(let step): ("last_used_step = ?", .integer(step))
    case .lastChallengedAt(let time): ("last_challenged_at = ?", .integer(time))
    case .updatedAt(let time): ("updated_at = ?", .integer(time))
    }
  }
}

/// A row of `mfa_challenges`: a request to prove a factor, answered once.
package struct StoredChallenge: Sendable {
  package var id: String
  package var verifiedAt: Int64?
  package var ipAddress: String
  package var createdAt: Int64
  /// Wrong codes tried against it.
  package var failedAttempts: Int
}
