import GoTrue
import GoTrueEngine
import IdentityToolkit

/// What an admin (`Bearer owner`, the Admin SDKs) does to any account.
extension FirebaseEmulation {
  /// `accounts` by an admin: an account with an email (this store needs one), optionally a
  /// chosen id (`DUPLICATE_LOCAL_ID` when taken), password, profile, verified and disabled.
  @concurrent
  public func create(_ new: FirebaseNewAccount) async throws(IdentityToolkitError)
    -> FirebaseAccount
  {
    if let id = new.id {
      guard !id.isEmpty, id.count <= 128 else {
        throw .badRequest("INVALID_LOCAL_ID", "The uid must be 1 to 128 characters")
      }
      if try read({ database, _ in try database.user(id: id) != nil }) {
        throw .badRequest(.duplicateLocalID)
      }
    }
    guard let rawEmail = new.email else {
      throw .badRequest(.missingEmail, "authflow serve keeps an email for every account")
    }
    let email = try validatedEmail(rawEmail)
    if try read({ database, _ in try database.user(email: email) != nil }) {
      throw .badRequest(.emailExists)
    }
    var hash = engine.secrets.decoyHash
    if let password = new.password {
      try checkPassword(password)
      hash = try self.hash(password)
    }
    return try write { database, now in
      if let id = new.id, try database.user(id: id) != nil {
        throw IdentityToolkitError.badRequest(.duplicateLocalID)
      }
      if try database.user(email: email) != nil {
        throw IdentityToolkitError.badRequest(.emailExists)
      }
      let user = try engine.insertUser(
        id: new.id, email: email, passwordHash: hash, data: [:],
        confirmed: new.emailVerified ?? false, database, now: now)
      try database.run(
        """
        UPDATE users SET display_name = ?, photo_url = ?, banned_until = ?, valid_since = ?,
          password_updated_at = ?
        WHERE id = ?
        """, new.displayName.map(SQLiteValue.text) ?? .null,
        new.photoURL.map(SQLiteValue.text) ?? .null,
        new.disabled == true ? .integer(Self.disabledUntil) : .null,
        new.password == nil ? .null : .integer(now), new.password == nil ? .null : .integer(now),
        .text(user.id))
      let created = try existingUser(user.id, database)
      try checkIDTokenFits(created)
      return try account(created, database, now: now)
    }
  }

  /// `accounts:delete` by an admin.
  public func delete(id: String) throws(IdentityToolkitError) {
    try write { database, _ in
      let user = try existingUser(id, database)
      try database.run("DELETE FROM users WHERE id = ?", .text(user.id))
    }
  }

  /// `accounts:batchDelete`: deletes the accounts among `ids` that exist; without `force`,
  /// only disabled ones. Answers the emulator's `NOT_DISABLED` for the others, by index.
  public func delete(ids: [String], force: Bool) throws(IdentityToolkitError)
    -> [(index: Int, id: String, message: String)]
  {
    guard !ids.isEmpty, ids.count <= 1_000 else { throw .badRequest(.localIDListExceedsLimit) }
    return try write { database, now in
      var refused: [(index: Int, id: String, message: String)] = []
      for (index, id) in ids.enumerated() {
        guard let user = try database.user(id: id), user.deletedAt == nil else { continue }
        if !force, !user.isBanned(at: now) {
          refused.append((index, id, "NOT_DISABLED : Disable the account before batch deletion."))
        } else {
          try database.run("DELETE FROM users WHERE id = ?", .text(id))
        }
      }
      return refused
    }
  }

  /// `DELETE /emulator/v1/projects/{id}/accounts`: every account of the store.
  public func deleteAllAccounts() throws(IdentityToolkitError) {
    try write { database, _ in try database.run("DELETE FROM users") }
  }
}
