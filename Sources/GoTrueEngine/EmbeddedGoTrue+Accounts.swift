import AuthCrypto
import Clocks
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension EmbeddedGoTrue {
  /// `POST /signup`, with GoTrue's answers for new, unconfirmed and confirmed emails.
  @concurrent
  public func signUp(email rawEmail: String, password: String, data: [String: JSONValue])
    async throws(GoTrueFailure) -> GoTrueSignUpResponse
  {
    let email = try EmailRules.validated(rawEmail)
    try checkPasswordStrength(password)
    let date = clock.now
    // The request is counted before any hashing, so a flood over the limit costs no bcrypt.
    try answer(spending: \.email) { _, _ in }
    // Every signup spends one hash, whether or not the email is taken: an answer that came
    // sooner for a taken email would tell who has an account.
    let hash = try hashPassword(password)
    try checkCancellation()
    let answered = try answer(spending: nil) { database, now -> SignUpAnswer in
      if let existing = try database.user(email: email) {
        return try answerExisting(existing, data: data, database, now: now)
      }
      return try insertAccount(email: email, hash: hash, data: data, database, now: now)
    }
    deliver(answered.emails, at: date)
    return answered.response
  }

  private struct SignUpAnswer: Sendable {
    var response: GoTrueSignUpResponse
    var emails: [PendingEmail] = []
  }

  private func insertAccount(
    email: String, hash: String, data: [String: JSONValue], _ database: SQLiteDatabase, now: Int64
  ) throws -> SignUpAnswer {
    if !configuration.autoconfirm { try limiter(database, now).checkEmailInterval(email) }
    let id = random.uuidString()
    try database.run(
      """
      INSERT INTO users (id, email, encrypted_password, email_confirmed_at, last_sign_in_at,
        user_metadata, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """, .text(id), .text(email), .text(hash),
      configuration.autoconfirm ? .integer(now) : .null,
      configuration.autoconfirm ? .integer(now) : .null,
      .text(UserRecord.encodeMetadata(data)), .integer(now), .integer(now))
    guard let user = try database.user(id: id) else { throw SQLiteError.missingRow }
    if configuration.autoconfirm {
      return SignUpAnswer(response: .session(try createSession(for: user, in: database, now: now)))
    }
    let email = try issueCode(.confirmation, for: user, database, now: now)
    guard let sent = try database.user(id: id) else { throw SQLiteError.missingRow }
    return SignUpAnswer(response: .user(sent.goTrueUser), emails: [email])
  }

  /// GoTrue for a taken email: a confirmed one gets 422 with autoconfirm, else a fake user with
  /// no identities and no email; an unconfirmed one gets its confirmation again.
  private func answerExisting(
    _ user: UserRecord, data: [String: JSONValue], _ database: SQLiteDatabase, now: Int64
  ) throws -> SignUpAnswer {
    if configuration.autoconfirm {
      throw GoTrueAPIError(
        status: 422, code: .userAlreadyExists, message: "User already registered")
    }
    if user.isConfirmed {
      let fake = GoTrueUser(
        id: random.uuidString(), email: user.email, confirmationSentAt: Date(millis: now),
        userMetadata: data, identities: [], createdAt: Date(millis: now),
        updatedAt: Date(millis: now))
      return SignUpAnswer(response: .user(fake))
    }
    try limiter(database, now).checkEmailInterval(user.email)
    let email = try issueCode(.confirmation, for: user, database, now: now)
    guard let sent = try database.user(id: user.id) else { throw SQLiteError.missingRow }
    return SignUpAnswer(response: .user(sent.goTrueUser), emails: [email])
  }

  /// `POST /token?grant_type=password`: one bcrypt check whether or not the email is known;
  /// `email_not_confirmed` only once the password is right.
  @concurrent
  public func signIn(email rawEmail: String, password: String) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    let email = EmailRules.normalized(rawEmail)
    let user = try answer(spending: \.token) { database, _ in try database.user(email: email) }
    // An unknown email is checked against a decoy hashed at the configured cost, so it takes as
    // long as a wrong password for an account made under the same settings.
    let matches = Bcrypt.verify(password, against: user?.passwordHash ?? secrets.decoyHash)
    try checkCancellation()
    guard let user, matches else {
      throw .api(
        GoTrueAPIError(status: 400, code: .invalidCredentials, message: "Invalid login credentials")
      )
    }
    guard user.isConfirmed else {
      throw .api(
        GoTrueAPIError(status: 400, code: .emailNotConfirmed, message: "Email not confirmed"))
    }
    return try answer(spending: nil) { database, now in
      try database.run(
        "UPDATE users SET last_sign_in_at = ? WHERE id = ?", .integer(now), .text(user.id))
      guard let current = try database.user(id: user.id) else {
        throw GoTrueAPIError(
          status: 400, code: .invalidCredentials, message: "Invalid login credentials")
      }
      return try createSession(for: current, in: database, now: now)
    }
  }

  /// `PUT /user` with a password: rejects the current one, clears pending codes and ends every
  /// other session of the user.
  @concurrent
  public func updatePassword(_ password: String, accessToken: String)
    async throws(GoTrueFailure) -> GoTrueUser
  {
    let user = try answer(spending: \.email) { database, now -> UserRecord in
      let claims = try authorize(accessToken, database, now: now)
      guard let user = try database.user(id: claims.sub) else {
        throw GoTrueAPIError(status: 404, code: "user_not_found", message: "User not found")
      }
      return user
    }
    try checkPasswordStrength(password)
    if Bcrypt.verify(password, against: user.passwordHash) {
      throw .api(
        GoTrueAPIError(
          status: 422, code: .samePassword,
          message: "New password should be different from the old password."))
    }
    let hash = try hashPassword(password)
    try checkCancellation()
    return try answer(spending: nil) { database, now in
      let claims = try authorize(accessToken, database, now: now)
      try database.run(
        "UPDATE users SET encrypted_password = ?, updated_at = ? WHERE id = ?", .text(hash),
        .integer(now), .text(user.id))
      try database.run(
        "DELETE FROM one_time_tokens WHERE user_id = ? AND used_at IS NULL", .text(user.id))
      try database.run(
        "DELETE FROM sessions WHERE user_id = ? AND id != ?", .text(user.id),
        .text(claims.sessionID))
      guard let updated = try database.user(id: user.id) else { throw SQLiteError.missingRow }
      return updated.goTrueUser
    }
  }

  /// GoTrue's server-side password rules: a minimum length (`weak_password`) and bcrypt's
  /// 72-byte maximum (`validation_failed`).
  func checkPasswordStrength(_ password: String) throws(GoTrueFailure) {
    if password.utf8.count > configuration.maximumPasswordBytes || password.utf8.contains(0) {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .validationFailed,
          message: "Password cannot be longer than \(configuration.maximumPasswordBytes) characters"
        ))
    }
    if password.count < configuration.minimumPasswordLength {
      throw .api(
        GoTrueAPIError(
          status: 422, code: .weakPassword,
          message: "Password should be at least \(configuration.minimumPasswordLength) characters.",
          weakPasswordReasons: ["length"]))
    }
  }

  private func hashPassword(_ password: String) throws(GoTrueFailure) -> String {
    do {
      return try Bcrypt.hash(password, cost: configuration.hashCost, random: random)
    } catch {
      throw .api(GoTrueAPIError(status: 500, code: .unexpectedFailure, message: "\(error)"))
    }
  }
}

extension SQLiteError {
  /// A row written in this transaction could not be read back.
  static let missingRow = SQLiteError(code: 0, message: "a row written could not be read back")
}
