import GoTrue
import GoTrueEngine
import IdentityToolkit

/// What a signed-in user may do to their own account, and what an admin may do to any.
extension FirebaseEmulation {
  /// `accounts:lookup` with an ID token.
  public func account(idToken: String) throws(IdentityToolkitError) -> FirebaseAccount {
    try read { database, now in
      try account(try verifiedUser(idToken: idToken, database, now: now).user, database, now: now)
    }
  }

  /// `accounts:delete` with an ID token.
  public func deleteAccount(idToken: String) throws(IdentityToolkitError) {
    try write { database, now in
      let user = try verifiedUser(idToken: idToken, database, now: now).user
      try database.run("DELETE FROM users WHERE id = ?", .text(user.id))
    }
  }

  /// `accounts:update` with an ID token: the user changes their email (at once, unverified
  /// again), password or profile. A new email or password revokes the old tokens and answers
  /// a new session, as the emulator does.
  @concurrent
  public func update(idToken: String, _ changes: FirebaseAccountChanges)
    async throws(IdentityToolkitError) -> (FirebaseAccount, FirebaseSession?)
  {
    let user = try read { database, now in
      try verifiedUser(idToken: idToken, database, now: now).user
    }
    if changes.disabled != nil { throw .badRequest(.operationNotAllowed) }
    var changes = changes
    changes.emailVerified = nil
    changes.validSince = nil
    let hash = try prepare(changes, for: user)
    return try write { database, now in
      let current = try verifiedUser(idToken: idToken, database, now: now).user
      let revoked = try apply(changes, hash: hash, to: current, database, now: now)
      guard let updated = try database.user(id: current.id) else { throw SQLiteError.missingRow }
      guard revoked else { return (try account(updated, database, now: now), nil) }
      let session = try startSession(for: updated, database, now: now)
      return (session.account, session)
    }
  }

  /// `accounts:update` by an admin, for the account `id`.
  @concurrent
  public func update(id: String, _ changes: FirebaseAccountChanges)
    async throws(IdentityToolkitError) -> FirebaseAccount
  {
    let user = try read { database, _ in try existingUser(id, database) }
    let hash = try prepare(changes, for: user)
    return try write { database, now in
      _ = try apply(changes, hash: hash, to: try existingUser(id, database), database, now: now)
      return try account(try existingUser(id, database), database, now: now)
    }
  }

  /// Checks `changes` against the rules and hashes a new password, before any lock is held.
  private func prepare(_ changes: FirebaseAccountChanges, for user: UserRecord)
    throws(IdentityToolkitError) -> String?
  {
    if let email = changes.email {
      let email = try validatedEmail(email)
      let taken = try read { database, _ in try database.user(email: email) }
      if let taken, taken.id != user.id { throw .badRequest(.emailExists) }
    }
    guard let password = changes.password else { return nil }
    try checkPassword(password)
    return try hash(password)
  }

  /// Writes `changes` to `user`; returns whether the old tokens were revoked (a new email,
  /// password or `validSince`).
  private func apply(
    _ changes: FirebaseAccountChanges, hash: String?, to user: UserRecord,
    _ database: SQLiteDatabase, now: Int64
  ) throws -> Bool {
    var assignments: [(String, SQLiteValue)] = [("updated_at", .integer(now))]
    var validSince: Int64?
    var verified = changes.emailVerified
    if let raw = changes.email, let email = try? validatedEmail(raw), email != user.email {
      if try database.user(email: email) != nil {
        throw IdentityToolkitError.badRequest(.emailExists)
      }
      assignments += [("email", .text(email)), ("new_email", .null)]
      try database.run(
        """
        UPDATE users SET user_metadata = json_set(user_metadata, '$.email', ?)
        WHERE id = ? AND json_type(user_metadata, '$.email') IS NOT NULL
        """, .text(email), .text(user.id))
      // Codes sent to the old address must not verify the new one.
      try database.run(
        """
        DELETE FROM one_time_tokens
        WHERE user_id = ? AND used_at IS NULL AND kind IN ('confirmation', 'recovery', 'magiclink')
        """, .text(user.id))
      verified = verified ?? false
      validSince = now / 1_000
    }
    if let hash {
      assignments += [("encrypted_password", .text(hash)), ("password_updated_at", .integer(now))]
      try database.run(
        "DELETE FROM one_time_tokens WHERE user_id = ? AND kind = 'recovery' AND used_at IS NULL",
        .text(user.id))
      validSince = now / 1_000
    }
    if changes.deletePassword {
      assignments.append(("encrypted_password", .text(engine.secrets.decoyHash)))
    }
    if let name = changes.displayName { assignments.append(("display_name", .text(name))) }
    if changes.deleteDisplayName { assignments.append(("display_name", .null)) }
    if let photo = changes.photoURL { assignments.append(("photo_url", .text(photo))) }
    if changes.deletePhotoURL { assignments.append(("photo_url", .null)) }
    if let disabled = changes.disabled {
      assignments.append(("banned_until", disabled ? .integer(Self.disabledUntil) : .null))
    }
    if let seconds = changes.validSince { validSince = seconds }
    if let validSince { assignments.append(("valid_since", .integer(validSince * 1_000))) }
    try database.run(
      "UPDATE users SET \(assignments.map { "\($0.0) = ?" }.joined(separator: ", ")) WHERE id = ?",
      assignments.map(\.1) + [.text(user.id)])
    try checkIDTokenFits(try existingUser(user.id, database))
    if let verified { try setEmailVerified(verified, of: user.id, database, now: now) }
    if let validSince { try revokeSessions(of: user.id, through: validSince, database) }
    return validSince != nil
  }

  /// Marks the email confirmed (as GoTrue's confirmation does) or not.
  func setEmailVerified(_ verified: Bool, of id: String, _ database: SQLiteDatabase, now: Int64)
    throws
  {
    try database.run(
      """
      UPDATE users SET
        email_confirmed_at = CASE WHEN ?1 THEN coalesce(email_confirmed_at, ?2) END,
        user_metadata = CASE WHEN json_type(user_metadata, '$.email_verified') IS NOT NULL
          THEN json_set(user_metadata, '$.email_verified', json(iif(?1, 'true', 'false')))
          ELSE user_metadata END
      WHERE id = ?3
      """, .integer(verified ? 1 : 0), .integer(now), .text(id))
  }
}

/// A change to an account. A user may change their email, password and profile; an admin
/// also whether the email is verified, whether the account is disabled, and `validSince`.
public struct FirebaseAccountChanges: Equatable, Sendable {
  /// A new email (verified again from scratch).
  public var email: String?
  /// A new password.
  public var password: String?
  /// A new display name.
  public var displayName: String?
  /// A new photo URL.
  public var photoURL: String?
  /// Whether the email is verified (admins only).
  public var emailVerified: Bool?
  /// Whether the account is disabled (admins only).
  public var disabled: Bool?
  /// Tokens issued before this second are refused (admins only; Unix seconds).
  public var validSince: Int64?
  /// Removes the display name (`deleteAttribute: DISPLAY_NAME`).
  public var deleteDisplayName = false
  /// Removes the photo URL (`deleteAttribute: PHOTO_URL`).
  public var deletePhotoURL = false
  /// Removes the password (`deleteAttribute: PASSWORD`): none anyone knows is left.
  public var deletePassword = false

  /// No change.
  public init() {}
}

/// A new account made by an admin.
public struct FirebaseNewAccount: Equatable, Sendable {
  /// The id to give it; a new UUID when `nil`.
  public var id: String?
  /// The email (required here).
  public var email: String?
  /// The password; none anyone knows when `nil`.
  public var password: String?
  /// The display name.
  public var displayName: String?
  /// The photo URL.
  public var photoURL: String?
  /// Whether the email is verified already.
  public var emailVerified: Bool?
  /// Whether the account starts disabled.
  public var disabled: Bool?

  /// An account with nothing set.
  public init() {}
}
