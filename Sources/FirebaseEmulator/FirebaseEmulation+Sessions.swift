import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Signing up and in, refreshing, and the ID tokens that prove a session.
extension FirebaseEmulation {
  /// `accounts:signUp` with an email and a password: a new account, signed in at once (not
  /// yet verified, as in Firebase). `ADMIN_ONLY_OPERATION` when the server takes no new users.
  @concurrent
  public func signUp(email rawEmail: String, password: String, displayName: String?)
    async throws(IdentityToolkitError) -> FirebaseSession
  {
    if engine.configuration.disableSignup { throw .badRequest(.adminOnlyOperation) }
    let email = try validatedEmail(rawEmail)
    if try read({ database, _ in try database.user(email: email) != nil }) {
      throw .badRequest(.emailExists)
    }
    try checkPassword(password)
    // The request is counted before hashing, so a flood over the limit costs no bcrypt.
    try write(spending: \.email) { _, _ in }
    let hash = try hash(password)
    return try write { database, now in
      if try database.user(email: email) != nil {
        throw IdentityToolkitError.badRequest(.emailExists)
      }
      let inserted = try engine.insertUser(
        email: email, passwordHash: hash, data: [:], confirmed: false, signsIn: true, database,
        now: now)
      try database.run(
        """
        UPDATE users SET display_name = ?, valid_since = ?, password_updated_at = ? WHERE id = ?
        """, displayName.map(SQLiteValue.text) ?? .null, .integer(now), .integer(now),
        .text(inserted.id))
      let user = try existingUser(inserted.id, database)
      try checkIDTokenFits(user)
      return try startSession(for: user, database, now: now)
    }
  }

  /// `accounts:signInWithPassword`: unconfirmed users sign in too. Checked in the emulator's
  /// order: `PASSWORD_LOGIN_DISABLED` (the email provider is off), `MISSING_EMAIL` (none sent;
  /// an empty one is `INVALID_EMAIL`), `INVALID_EMAIL` (not the emulator's email form),
  /// `MISSING_PASSWORD`, then `unsupported` (the emulator's `501` for a field it does not
  /// serve, such as a captcha); then, for the account, `EMAIL_NOT_FOUND`, `USER_DISABLED`
  /// (even with a wrong password), `INVALID_PASSWORD`, or with improved email privacy
  /// `INVALID_LOGIN_CREDENTIALS` for the first and last.
  @concurrent
  public func signIn(email rawEmail: String?, password: String?, unsupported: String? = nil)
    async throws(IdentityToolkitError) -> FirebaseSession
  {
    guard engine.configuration.emailProvider else { throw .badRequest("PASSWORD_LOGIN_DISABLED") }
    guard let rawEmail else { throw .badRequest(.missingEmail) }
    guard FirebaseRules.isEmailForm(rawEmail) else { throw .badRequest(.invalidEmail) }
    guard let password, !password.isEmpty else { throw .badRequest(.missingPassword) }
    if let unsupported {
      throw IdentityToolkitError(status: 501, message: unsupported, statusName: "NOT_IMPLEMENTED")
    }
    let email = EmailRules.normalized(rawEmail)
    let privacy = improvedEmailPrivacy
    let user = try write(spending: \.token) { database, _ in
      try database.user(email: email).flatMap { $0.deletedAt == nil ? $0 : nil }
    }
    guard let user else {
      throw .badRequest(privacy ? .invalidLoginCredentials : .emailNotFound)
    }
    if user.isBanned(at: engine.nowMillis) { throw .badRequest(.userDisabled) }
    guard Bcrypt.verify(password, against: user.passwordHash) else {
      throw .badRequest(privacy ? .invalidLoginCredentials : .invalidPassword)
    }
    return try write { database, now in
      try database.run(
        "UPDATE users SET last_sign_in_at = ? WHERE id = ?", .integer(now), .text(user.id))
      return try startSession(for: try existingUser(user.id, database), database, now: now)
    }
  }

  /// Secure Token's `token` with a refresh token: rotates it as GoTrue's refresh does and
  /// signs a new ID token. Anything wrong with the token is `INVALID_REFRESH_TOKEN`; a
  /// disabled account is `USER_DISABLED`.
  @concurrent
  public func refresh(refreshToken: String) async throws(IdentityToolkitError) -> FirebaseSession {
    let rotation: EmbeddedGoTrue.Rotation
    do {
      rotation = try engine.rotate(refreshToken: refreshToken, firebase: true)
    } catch {
      if error.code == .userBanned { throw .badRequest(.userDisabled) }
      if case .api(let apiError) = error, apiError.status == 400 {
        throw .badRequest(.invalidRefreshToken)
      }
      throw Self.translated(error)
    }
    guard rotation.user.deletedAt == nil else { throw .badRequest(.invalidRefreshToken) }
    return try read { database, _ in
      try session(
        for: rotation.user, rotation.session, refreshToken: rotation.refreshToken, database,
        now: rotation.now)
    }
  }

  // MARK: Sessions and ID tokens

  /// Opens a session for `user` and signs its first ID token.
  func startSession(for user: UserRecord, _ database: SQLiteDatabase, now: Int64) throws
    -> FirebaseSession
  {
    let (info, refreshToken) = try engine.openSession(
      for: user, method: .firebase, in: database, now: now)
    return try session(for: user, info, refreshToken: refreshToken, database, now: now)
  }

  private func session(
    for user: UserRecord, _ info: EmbeddedGoTrue.SessionInfo, refreshToken: String,
    _ database: SQLiteDatabase, now: Int64
  ) throws -> FirebaseSession {
    let lifetime = Int(engine.configuration.accessTokenLifetime)
    return FirebaseSession(
      account: try account(user, database, now: now),
      idToken: idToken(for: user, session: info, lifetime: lifetime, now: now),
      refreshToken: refreshToken, expiresIn: lifetime)
  }

  /// An ID token with the emulator's claims (`iss`, `aud`, `auth_time`, `user_id`, `sub`,
  /// `iat`, `exp`, `email`, `email_verified`, `firebase`, `name` when set), plus the engine's
  /// `session_id`, so that signing out or revoking ends it. Signed HS256 with the store's
  /// JWT secret, where the emulator leaves its tokens unsigned.
  func idToken(
    for user: UserRecord, session: EmbeddedGoTrue.SessionInfo, lifetime: Int, now: Int64
  ) -> String {
    JSONWebToken.sign(
      idTokenClaims(for: user, session: session, lifetime: lifetime, now: now),
      secret: engine.secrets.jwt)
  }

  /// Throws `CLAIMS_TOO_LARGE` when `user`'s ID token would be longer than
  /// ``EngineConfiguration/maximumTokenBytes``: the display name and photo URL are in every
  /// token, and one the server cannot read back in a header would lock the user out. Call after
  /// writing the user, inside the write's transaction, so the write is undone.
  func checkIDTokenFits(_ user: UserRecord) throws(IdentityToolkitError) {
    let session = EmbeddedGoTrue.SessionInfo(
      id: UUIDText.placeholder, method: .password, startedAt: 0)
    let claims = idTokenClaims(
      for: user, session: session, lifetime: 0, now: Int64(Int32.max) * 1_000)
    let length = JSONWebToken.length(ofTokenWith: claims)
    let maximum = engine.configuration.maximumTokenBytes
    guard length > maximum else { return }
    throw .badRequest(
      "CLAIMS_TOO_LARGE",
      "displayName and photoUrl would make an ID token of \(length) bytes, over the \(maximum) "
        + "a request header may carry")
  }

  private func idTokenClaims(
    for user: UserRecord, session: EmbeddedGoTrue.SessionInfo, lifetime: Int, now: Int64
  ) -> [String: JSONValue] {
    let issuedAt = Double(now / 1_000)
    var claims: [String: JSONValue] = [
      "iss": .string(issuer), "aud": .string(projectID),
      "auth_time": .number(Double(session.startedAt / 1_000)), "user_id": .string(user.id),
      "sub": .string(user.id), "iat": .number(issuedAt),
      "exp": .number(issuedAt + Double(lifetime)),
      "email": .string(user.email), "email_verified": .bool(user.isConfirmed),
      "firebase": .object([
        "identities": .object(["email": .array([.string(user.email)])]),
        "sign_in_provider": .string("password"),
      ]),
      "session_id": .string(session.id),
    ]
    if let name = user.displayName { claims["name"] = .string(name) }
    if let picture = user.photoURL { claims["picture"] = .string(picture) }
    return claims
  }

  /// The user of `idToken`, checked strictly: signed with the store's secret (HS256 only),
  /// issued for this project with Firebase's claims, else `INVALID_ID_TOKEN`; then, in the
  /// emulator's order, `USER_NOT_FOUND`, `TOKEN_EXPIRED` (issued before `validSince`),
  /// `USER_DISABLED`; and, beyond the emulator, `TOKEN_EXPIRED` once `exp` has passed or its
  /// session has ended (signed out, revoked).
  func verifiedUser(idToken: String, _ database: SQLiteDatabase, now: Int64) throws
    -> (user: UserRecord, claims: [String: JSONValue])
  {
    let invalid = IdentityToolkitError.badRequest(.invalidIDToken)
    guard !idToken.isEmpty,
      // NB: `exp` is checked below, after the user, in the emulator's order of answers.
      let claims = try? JSONWebToken.verify(idToken, secret: engine.secrets.jwt, now: nil),
      claims["iss"]?.stringValue == issuer, claims["aud"]?.stringValue == projectID,
      claims["firebase"]?.objectValue != nil,
      let id = claims["sub"]?.stringValue, !id.isEmpty,
      let issuedAt = claims["iat"]?.numberValue, let expiry = claims["exp"]?.numberValue,
      // A token issued, or valid from, a time still to come is not one this server made.
      issuedAt <= Double(now / 1_000),
      (claims["nbf"]?.numberValue).map({ $0 <= Double(now / 1_000) }) ?? (claims["nbf"] == nil)
    else { throw invalid }
    let user = try existingUser(id, database)
    if let validSince = user.validSince, issuedAt < Double(validSince / 1_000) {
      throw IdentityToolkitError.badRequest(.tokenExpired)
    }
    if user.isBanned(at: now) { throw IdentityToolkitError.badRequest(.userDisabled) }
    if expiry <= Double(now / 1_000) { throw IdentityToolkitError.badRequest(.tokenExpired) }
    if let sessionID = claims["session_id"]?.stringValue {
      let live = try database.first(
        "SELECT 1 FROM sessions WHERE id = ? AND user_id = ?", .text(sessionID), .text(user.id),
        row: { _ in true })
      if live != true { throw IdentityToolkitError.badRequest(.tokenExpired) }
    }
    return (user, claims)
  }

  /// Ends the sessions of `user` begun in or before the second `validSince`, the tokens a new
  /// `validSince` revokes (a token of that very second too: the revoking call came after it).
  func revokeSessions(of user: String, through validSince: Int64, _ database: SQLiteDatabase)
    throws
  {
    try database.run(
      "DELETE FROM sessions WHERE user_id = ? AND created_at < ?", .text(user),
      .integer((validSince + 1) * 1_000))
  }
}
