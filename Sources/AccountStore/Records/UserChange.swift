import GoTrue

/// One change to a user's row. The rules say what changes; the store says how it is kept.
package enum UserChange: Sendable {
  case email(String?)
  case passwordHash(String)
  case emailConfirmedAt(Int64?)
  /// Confirms the address at this time unless it is confirmed already.
  case confirmEmail(at: Int64)
  case confirmationSentAt(Int64?)
  case recoverySentAt(Int64?)
  case lastSignInAt(Int64?)
  case userMetadata([String: JSONValue])
  case appMetadata([String: JSONValue])
  case role(String)
  /// The email identity's id; `keepingAny` leaves one the user has.
  case identityID(String, keepingAny: Bool)
  case identityData([String: JSONValue])
  case newEmail(String?)
  case emailChangeSentAt(Int64?)
  case emailChangeConfirmed(Bool)
  case bannedUntil(Int64?)
  case deletedAt(Int64?)
  case displayName(String?)
  case photoURL(String?)
  case validSince(Int64?)
  case passwordUpdatedAt(Int64?)
  case isAnonymous(Bool)
  case invitedAt(Int64?)
  case reauthenticationSentAt(Int64?)
  case initialEmail(String?)
  case customClaims(String?)
  case emailLinkSignin(Bool)
  case customAuth(Bool)
  case updatedAt(Int64)
  case createdAt(Int64)
  /// The phone number (E.164 digits, no `+`), or none.
  case phone(String?)
  /// When the phone number was confirmed, or never.
  case phoneConfirmedAt(Int64?)
  /// A new phone number waiting for its code, or none.
  case phoneChange(String?)
  /// When the new number's code was sent.
  case phoneChangeSentAt(Int64?)

  /// The column's assignment and its value.
  var assignment: (sql: String, value: SQLiteValue) {
    switch self {
    case .email(let value): ("email = ?", .optional(value))
    case .passwordHash(let value): ("encrypted_password = ?", .text(value))
    case .emailConfirmedAt(let value): ("email_confirmed_at = ?", .optional(value))
    case .confirmEmail(let at):
      ("email_confirmed_at = coalesce(email_confirmed_at, ?)", .integer(at))
    case .confirmationSentAt(let value): ("confirmation_sent_at = ?", .optional(value))
    case .recoverySentAt(let value): ("recovery_sent_at = ?", .optional(value))
    case .lastSignInAt(let value): ("last_sign_in_at = ?", .optional(value))
    case .userMetadata(let value): ("user_metadata = ?", .text(UserRecord.encodeMetadata(value)))
    case .appMetadata(let value): ("app_metadata = ?", .text(UserRecord.encodeMetadata(value)))
    case .role(let value): ("role = ?", .text(value))
    case .identityID(let value, let keepingAny):
      (keepingAny ? "identity_id = coalesce(identity_id, ?)" : "identity_id = ?", .text(value))
    case .identityData(let value): ("identity_data = ?", .text(UserRecord.encodeMetadata(value)))
    case .newEmail(let value): ("new_email = ?", .optional(value))
    case .emailChangeSentAt(let value): ("email_change_sent_at = ?", .optional(value))
    case .emailChangeConfirmed(let value): ("email_change_confirmed = ?", .bool(value))
    case .bannedUntil(let value): ("banned_until = ?", .optional(value))
    case .deletedAt(let value): ("deleted_at = ?", .optional(value))
    case .displayName(let value): ("display_name = ?", .optional(value))
    case .photoURL(let value): ("photo_url = ?", .optional(value))
    case .validSince(let value): ("valid_since = ?", .optional(value))
    case .passwordUpdatedAt(let value): ("password_updated_at = ?", .optional(value))
    case .isAnonymous(let value): ("is_anonymous = ?", .bool(value))
    case .invitedAt(let value): ("invited_at = ?", .optional(value))
    case .reauthenticationSentAt(let value): ("reauthentication_sent_at = ?", .optional(value))
    case .initialEmail(let value): ("initial_email = ?", .optional(value))
    case .customClaims(let value): ("custom_claims = ?", .optional(value))
    case .emailLinkSignin(let value): ("email_link_signin = ?", .bool(value))
    case .customAuth(let value): ("custom_auth = ?", .bool(value))
    case .updatedAt(let value): ("updated_at = ?", .integer(value))
    case .createdAt(let value): ("created_at = ?", .integer(value))
    case .phone(let value): ("phone = ?", .optional(value))
    case .phoneConfirmedAt(let value): ("phone_confirmed_at = ?", .optional(value))
    case .phoneChange(let value): ("phone_change = ?", .optional(value))
    case .phoneChangeSentAt(let value): ("phone_change_sent_at = ?", .optional(value))
    }
  }

  /// The column it writes.
  var column: Substring {
    let sql = assignment.sql
    return sql[..<(sql.firstIndex(of: " ") ?? sql.endIndex)]
  }
}

extension Accounts {
  /// Makes `changes` to user `id`; of two changes to one column, the later holds.
  package func updateUser(_ id: String, _ changes: [UserChange]) throws(Failure) {
    guard !changes.isEmpty else { return }
    var latest: [UserChange] = []
    for change in changes {
      latest.removeAll { $0.column == change.column }
      latest.append(change)
    }
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.updateUser(id, latest) }
    }
    let assignments = latest.map(\.assignment)
    try run(
      "UPDATE users SET \(assignments.map(\.sql).joined(separator: ", ")) WHERE id = ?",
      assignments.map(\.value) + [.text(id)])
  }

  /// Makes `changes` to user `id`, and answers the user as it then is.
  package func updatedUser(_ id: String, _ changes: [UserChange]) throws(Failure)
    -> UserRecord
  {
    try updateUser(id, changes)
    return try existingUser(id: id)
  }
}
