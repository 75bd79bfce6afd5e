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

extension Accounts {
  /// The factors of user `userID`, oldest first.
  package func factors(ofUser userID: String) throws -> [FactorRecord] {
    try query(
      "SELECT \(FactorRecord.columns) FROM mfa_factors WHERE user_id = ? ORDER BY created_at, id",
      .text(userID), row: FactorRecord.init)
  }

  /// Factor `id` if it belongs to user `userID` (GoTrue's `FindOwnedFactorByID`).
  package func factor(id: String, ofUser userID: String) throws -> FactorRecord? {
    try first(
      "SELECT \(FactorRecord.columns) FROM mfa_factors WHERE id = ? AND user_id = ?", .text(id),
      .text(userID), row: FactorRecord.init)
  }

  /// Downgrades the sessions factor `factorID` raised to aal2 (GoTrue's
  /// `DowngradeSessionsToAAL1`): their `totp` method goes, and they are aal1 again.
  package func downgradeSessions(raisedBy factorID: String) throws {
    try run(
      """
      DELETE FROM session_amr WHERE method = 'totp'
        AND session_id IN (SELECT id FROM sessions WHERE factor_id = ?)
      """, .text(factorID))
    try run(
      "UPDATE sessions SET aal = 'aal1', factor_id = NULL WHERE factor_id = ?", .text(factorID))
  }
}
