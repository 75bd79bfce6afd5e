import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Signing in with a password, and refreshing a session (Secure Token).
extension FirebaseEmulation {
  /// `accounts:signInWithPassword`: unconfirmed users sign in too. Checked in the emulator's
  /// order: `PASSWORD_LOGIN_DISABLED` (the email provider is off), `MISSING_EMAIL` (none sent;
  /// an empty one is `INVALID_EMAIL`), `INVALID_EMAIL` (not the emulator's email form),
  /// `MISSING_PASSWORD`, then `unsupported` (the emulator's `501` for a field it does not
  /// serve, such as a captcha); then, for the account, `EMAIL_NOT_FOUND`, `USER_DISABLED`
  /// (even with a wrong password), `INVALID_PASSWORD`, or with improved email privacy
  /// `INVALID_LOGIN_CREDENTIALS` for the first and last. A user with a verified second factor
  /// is not signed in yet: the sign-in waits for its code (``finishSignIn(_:_:_:now:)``).
  @concurrent
  package func signIn(email rawEmail: String?, password: String?, unsupported: String? = nil)
    async throws(IdentityToolkitError) -> FirebaseSignInOutcome
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
    let user = try read { database, _ in
      try database.user(email: email).flatMap { $0.deletedAt == nil ? $0 : nil }
    }
    guard let user else {
      // With improved email privacy the answer must not tell who has an account, so an
      // unknown email costs the same bcrypt check as a wrong password.
      if privacy { _ = engine.checkPassword(password, against: nil) }
      throw .badRequest(privacy ? .invalidLoginCredentials : .emailNotFound)
    }
    if user.isBanned(at: engine.nowMillis) { throw .badRequest(.userDisabled) }
    let check = engine.checkPassword(password, against: user.passwordHash)
    guard check.matches else {
      throw .badRequest(privacy ? .invalidLoginCredentials : .invalidPassword)
    }
    return try write { database, now in
      try engine.keepRehash(of: check, for: user.id, database)
      return try finishSignIn(try existingUser(user.id, database), .password, database, now: now)
    }
  }

  /// Whether `refreshToken` has the form of the refresh tokens this server issues (43
  /// characters of base64url, the text of 32 random bytes or of a rotation's HMAC). The
  /// emulator decodes a refresh token before the operation runs, so one it cannot read is
  /// `INVALID_REFRESH_TOKEN` before any other check; this is that reading.
  package static func isWellFormed(refreshToken: String) -> Bool {
    refreshToken.utf8.count == 43
      && refreshToken.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
          true
        default: false
        }
      }
  }

  /// Secure Token's `token` with a refresh token: rotates it as GoTrue's refresh does and
  /// signs a new ID token. Anything wrong with the token is `INVALID_REFRESH_TOKEN`; a
  /// disabled account is `USER_DISABLED`.
  @concurrent
  package func refresh(refreshToken: String) async throws(IdentityToolkitError) -> FirebaseSession {
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
        for: rotation.user, rotation.session,
        try signInMethod(ofSession: rotation.session.id, database),
        refreshToken: rotation.refreshToken, database, now: rotation.now)
    }
  }
}
