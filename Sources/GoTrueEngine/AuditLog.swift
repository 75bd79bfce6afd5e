import AccountStore
import AuthCrypto
import GoTrue

/// What GoTrue's audit log records (`models/audit_log_entry.go`), each with its log type.
package enum AuditAction: String, Sendable {
  case login
  case logout
  case userSignedUp = "user_signedup"
  case userInvited = "user_invited"
  case userDeleted = "user_deleted"
  case userModified = "user_modified"
  case userRecoveryRequested = "user_recovery_requested"
  case userReauthenticateRequested = "user_reauthenticate_requested"
  case userConfirmationRequested = "user_confirmation_requested"
  case userRepeatedSignUp = "user_repeated_signup"
  case userUpdatedPassword = "user_updated_password"
  case tokenRevoked = "token_revoked"
  case tokenRefreshed = "token_refreshed"

  /// GoTrue's `ActionLogTypeMap`.
  var logType: String {
    switch self {
    case .login, .logout: "account"
    case .userSignedUp, .userInvited, .userDeleted: "team"
    case .tokenRevoked, .tokenRefreshed: "token"
    case .userModified, .userRecoveryRequested, .userReauthenticateRequested,
      .userConfirmationRequested, .userRepeatedSignUp, .userUpdatedPassword:
      "user"
    }
  }
}

/// Who an entry names: a user, or the admin key (GoTrue's admin "user" is the token's role,
/// with the nil UUID).
package enum AuditActor: Sendable {
  case user(UserRecord)
  case admin

  /// The traits GoTrue adds when an admin acts on `user`.
  static func traits(of user: UserRecord) -> [String: JSONValue] {
    [
      "user_id": .string(user.id), "user_email": .string(user.email),
      "user_phone": .string(user.phone ?? ""),
    ]
  }
}

extension EmbeddedGoTrue {
  /// Adds an entry to the audit log in the request's transaction, as GoTrue's
  /// `NewAuditLogEntry` does (no address: GoTrue passes none for these actions). The entry's
  /// id comes from the system, not the engine's injected source: a log entry must not move the
  /// codes and tokens a seeded run hands out, and two engines seeded alike share one store.
  package func audit(
    _ database: EngineAccounts, _ actor: AuditActor, _ action: AuditAction,
    traits: [String: JSONValue]? = nil, now: Int64
  ) throws(GoTrueAPIError) {
    var payload: [String: JSONValue] = [
      "action": .string(action.rawValue), "log_type": .string(action.logType),
      "actor_via_sso": .bool(false),
    ]
    switch actor {
    case .user(let user):
      payload["actor_id"] = .string(user.id)
      // GoTrue names the actor by the phone when there is one, else by the email.
      payload["actor_username"] = .string(user.phone ?? user.email)
      if let name = user.userMetadata["full_name"] { payload["actor_name"] = name }
    case .admin:
      payload["actor_id"] = .string("00000000-0000-0000-0000-000000000000")
      payload["actor_username"] = .string("service_role")
    }
    if let traits { payload["traits"] = .object(traits) }
    var writer = JSONWriter()
    writer.value(.object(payload))
    let text = String(decoding: writer.result ?? [], as: UTF8.self)
    try database.appendAuditEntry(
      AuditEntryRecord(
        id: SystemRandom().uuidString(), payload: text, createdAt: now, ipAddress: ""))
  }

  /// At most `limit` entries of the audit log after skipping `offset`, newest first: those
  /// whose payload members `members` hold `value`, and how many match in all.
  package func auditLog(members: [String], value: String, limit: Int, offset: Int64)
    throws(GoTrueFailure) -> (entries: [AuditEntryRecord], total: Int)
  {
    try withDatabase { database throws(GoTrueAPIError) in
      try database.auditEntries(
        AuditQuery(members: members, value: value, limit: limit, offset: offset))
    }
  }
}
