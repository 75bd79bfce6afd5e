import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Out-of-band codes: email verification and password reset, by link.
///
/// A code is a row of the engine's `one_time_tokens` (the same kinds as GoTrue's confirmation
/// and recovery, so a new code of a kind replaces a waiting one of either surface), found by
/// a keyed hash of the code; it works once and expires with the engine's code lifetime. The
/// plaintext is kept only in this process, for the emulator's `oobCodes` listing.
extension FirebaseEmulation {
  /// `sendOobCode` for `PASSWORD_RESET`: a code for the account of `email`; `EMAIL_NOT_FOUND`
  /// when there is none (or, with improved email privacy, `nil` and nothing sent). `mailed`:
  /// into the outbox, under the engine's email limits; otherwise only returned (an admin's
  /// `returnOobLink`).
  public func sendPasswordReset(email rawEmail: String, mailed: Bool, continueURL: String?)
    throws(IdentityToolkitError) -> FirebaseOutOfBandCode?
  {
    let email = EmailRules.normalized(rawEmail)
    let privacy = improvedEmailPrivacy
    return try send(.passwordReset, mailed: mailed, continueURL: continueURL) { database, _ in
      guard let user = try database.user(email: email), user.deletedAt == nil else {
        if privacy { return nil }
        throw IdentityToolkitError.badRequest(.emailNotFound)
      }
      return user
    }
  }

  /// `sendOobCode` for `VERIFY_EMAIL` by the signed-in user of `idToken`.
  public func sendVerification(idToken: String, mailed: Bool, continueURL: String?)
    throws(IdentityToolkitError) -> FirebaseOutOfBandCode
  {
    let code = try send(.verifyEmail, mailed: mailed, continueURL: continueURL) {
      database, now in try verifiedUser(idToken: idToken, database, now: now).user
    }
    guard let code else { throw .badRequest(.invalidIDToken) }
    return code
  }

  /// `sendOobCode` for `VERIFY_EMAIL` by an admin, for the account of `email`
  /// (`USER_NOT_FOUND` when there is none).
  public func sendVerification(email rawEmail: String, mailed: Bool, continueURL: String?)
    throws(IdentityToolkitError) -> FirebaseOutOfBandCode
  {
    let email = EmailRules.normalized(rawEmail)
    let code = try send(.verifyEmail, mailed: mailed, continueURL: continueURL) { database, _ in
      guard let user = try database.user(email: email), user.deletedAt == nil else {
        throw IdentityToolkitError.badRequest(.userNotFound)
      }
      return user
    }
    guard let code else { throw .badRequest(.userNotFound) }
    return code
  }

  private func send(
    _ type: FirebaseCodeType, mailed: Bool, continueURL: String?,
    to recipient: (SQLiteDatabase, Int64) throws -> UserRecord?
  ) throws(IdentityToolkitError) -> FirebaseOutOfBandCode? {
    let code = engine.random.token(byteCount: 40)
    let date = engine.clock.now
    let budget: KeyPath<EngineConfiguration.RateLimits, EngineConfiguration.Budget>? =
      mailed ? \.email : nil
    let issued = try write(spending: budget) {
      database, now -> (FirebaseOutOfBandCode, PendingEmail)? in
      guard let user = try recipient(database, now) else { return nil }
      if mailed { try engine.limiter(database, now).checkEmailInterval(user.email) }
      let link = EmulatorActionLink.url(
        base: linkBase, mode: type.mode, oobCode: code, continueURL: continueURL)
      let pending = try engine.issueCode(
        type.kind, for: user, database, now: now, mailed: mailed,
        oob: EmbeddedGoTrue.OutOfBandCode(code: code, link: link, project: projectID))
      return (
        FirebaseOutOfBandCode(email: user.email, type: type, code: code, link: link), pending
      )
    }
    guard let issued else { return nil }
    let (listed, email) = issued
    if mailed { engine.deliver([email], at: date) }
    state.codes.withLock { codes in
      codes.append(listed)
      if codes.count > FirebaseEmulationState.capacity { codes.removeFirst() }
    }
    return listed
  }

  /// `resetPassword` with only a code: its type and the address it was sent to, without
  /// spending it. `INVALID_OOB_CODE` for a wrong or used code, `EXPIRED_OOB_CODE` past its
  /// lifetime.
  public func inspect(code: String) throws(IdentityToolkitError)
    -> (email: String, type: FirebaseCodeType)
  {
    try read { database, now in
      let (row, user) = try liveCode(code, database, now: now)
      return (user.email, row.type)
    }
  }

  /// `resetPassword` with a new password: spends a `PASSWORD_RESET` code, sets the password,
  /// verifies the email (the code proved it) and revokes the old tokens. Answers the email.
  @concurrent
  public func resetPassword(code: String, newPassword: String)
    async throws(IdentityToolkitError) -> String
  {
    let user = try read { database, now in
      let (row, user) = try liveCode(code, database, now: now)
      guard row.type == .passwordReset else {
        throw IdentityToolkitError.badRequest(.invalidOOBCode)
      }
      return user
    }
    try checkPassword(newPassword)
    let hash = try hash(newPassword)
    return try write { database, now in
      let (row, current) = try liveCode(code, database, now: now)
      guard row.type == .passwordReset, current.id == user.id else {
        throw IdentityToolkitError.badRequest(.invalidOOBCode)
      }
      try database.run(
        "UPDATE one_time_tokens SET used_at = ? WHERE id = ?", .integer(now), .integer(row.id))
      try database.run(
        """
        UPDATE users SET encrypted_password = ?, password_updated_at = ?, valid_since = ?,
          updated_at = ?
        WHERE id = ?
        """, .text(hash), .integer(now), .integer(now / 1_000 * 1_000), .integer(now),
        .text(current.id))
      try setEmailVerified(true, of: current.id, database, now: now)
      try revokeSessions(of: current.id, through: now / 1_000, database)
      return current.email
    }
  }

  /// `accounts:update` with a `VERIFY_EMAIL` code: spends it and verifies the email. A
  /// `PASSWORD_RESET` code here is the emulator's `501`.
  public func applyVerification(code: String) throws(IdentityToolkitError) -> FirebaseAccount {
    try write { database, now in
      let (row, user) = try liveCode(code, database, now: now)
      guard row.type == .verifyEmail else {
        throw IdentityToolkitError(
          status: 501, message: row.type.rawValue, statusName: "NOT_IMPLEMENTED")
      }
      try database.run(
        "UPDATE one_time_tokens SET used_at = ? WHERE id = ?", .integer(now), .integer(row.id))
      try setEmailVerified(true, of: user.id, database, now: now)
      return try account(try existingUser(user.id, database), database, now: now)
    }
  }

  /// The codes made in this process that can still be used, oldest first (the emulator's
  /// `oobCodes`); used, replaced and expired ones are dropped from the list.
  public func codes() throws(IdentityToolkitError) -> [FirebaseOutOfBandCode] {
    let listed = state.codes.withLock { $0 }
    let dead = try read { database, now in
      try listed.filter { entry in
        try database.first(
          """
          SELECT 1 FROM one_time_tokens WHERE link_hash = ? AND used_at IS NULL AND expires_at > ?
          """, .blob(engine.oobHash(entry.code)), .integer(now), row: { _ in true }) == nil
      }.map(\.code)
    }
    let gone = Set(dead)
    state.codes.withLock { codes in codes.removeAll { gone.contains($0.code) } }
    return listed.filter { !gone.contains($0.code) }
  }

  private struct CodeRow {
    var id: Int64
    var type: FirebaseCodeType
  }

  /// The unused, unexpired code `code` and its user, or `INVALID_OOB_CODE` /
  /// `EXPIRED_OOB_CODE`.
  private func liveCode(_ code: String, _ database: SQLiteDatabase, now: Int64) throws
    -> (CodeRow, UserRecord)
  {
    let invalid = IdentityToolkitError.badRequest(.invalidOOBCode)
    guard !code.isEmpty,
      let row = try database.first(
        """
        SELECT id, user_id, kind, expires_at, used_at FROM one_time_tokens
        WHERE link_hash = ? ORDER BY id DESC LIMIT 1
        """, .blob(engine.oobHash(code)),
        row: {
          (
            id: $0.int(0), user: $0.text(1), kind: $0.text(2), expiresAt: $0.int(3),
            usedAt: $0.optionalInt(4)
          )
        }),
      row.usedAt == nil,
      let type = FirebaseCodeType(kind: row.kind),
      let user = try database.user(id: row.user), user.deletedAt == nil
    else { throw invalid }
    if row.expiresAt <= now { throw IdentityToolkitError.badRequest(.expiredOOBCode) }
    return (CodeRow(id: row.id, type: type), user)
  }
}

/// The out-of-band codes the emulation makes.
public enum FirebaseCodeType: String, Equatable, Sendable {
  /// Verifies the account's email (`mode=verifyEmail`).
  case verifyEmail = "VERIFY_EMAIL"
  /// Resets a forgotten password (`mode=resetPassword`).
  case passwordReset = "PASSWORD_RESET"

  /// The mode of the link that carries it.
  public var mode: String { self == .verifyEmail ? "verifyEmail" : "resetPassword" }

  var kind: CodeKind { self == .verifyEmail ? .confirmation : .recovery }

  init?(kind: String) {
    switch kind {
    case CodeKind.confirmation.rawValue: self = .verifyEmail
    case CodeKind.recovery.rawValue: self = .passwordReset
    default: return nil
    }
  }
}

/// A code as the emulator lists it: the address it went to, its type, the code and its link.
public struct FirebaseOutOfBandCode: Equatable, Sendable {
  /// The address it was sent to.
  public var email: String
  /// What it does.
  public var type: FirebaseCodeType
  /// The code.
  public var code: String
  /// The link that carries it.
  public var link: String
}
