import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Signing in by email link (`accounts:signInWithEmailLink`, legacy `emailLinkSignin`): an
/// `EMAIL_SIGNIN` code proves the address, and signs its account in, makes one, or moves the
/// signed-in user of an ID token to it.
extension FirebaseEmulation {
  /// Signs in with the `EMAIL_SIGNIN` code `code` sent to `email`, in the emulator's order:
  /// the ID token's errors (when one is given), `MISSING_EMAIL`, `MISSING_OOB_CODE`,
  /// `INVALID_OOB_CODE`, `INVALID_EMAIL : The email provided does not match the sign-in email
  /// address.`; the code is then spent, and the account is the ID token's user, else the
  /// address's, else a new one. `USER_DISABLED`, and `EMAIL_EXISTS` when the ID token's user
  /// is not the address's, come after the code is spent, as in the emulator.
  ///
  /// The account gets the address, verified, and signs in by email link from then on (a
  /// `password` provider, as the emulator shows it). A new account needs signups allowed
  /// (`ADMIN_ONLY_OPERATION`, leaving the code unspent). With an ID token, the change of
  /// address is held to the rule of credentials (``checkCredentialChange``); without one, a
  /// user with a verified second factor is not signed in yet: the sign-in waits for its code.
  package func signInWithEmailLink(email rawEmail: String?, code: String?, idToken: String?)
    throws(IdentityToolkitError) -> (outcome: FirebaseSignInOutcome, isNewUser: Bool)
  {
    let idToken = Self.truthy(idToken)
    if let idToken {
      _ = try read { database, now in try verifiedUser(idToken: idToken, database, now: now) }
    }
    guard let rawEmail = Self.truthy(rawEmail) else { throw .badRequest(.missingEmail) }
    let email = EmailRules.normalized(rawEmail)
    guard let code = Self.truthy(code) else { throw .badRequest(.missingOOBCode) }
    let signupsDisabled = engine.configuration.disableSignup
    return try write {
      database, now -> Result<(FirebaseSignInOutcome, Bool), IdentityToolkitError> in
      let token = try idToken.map { try verifiedUser(idToken: $0, database, now: now) }
      let tokenUser = token?.user
      let record = try storedCode(code, database, now: now)
      guard record.type == .emailSignIn else {
        throw IdentityToolkitError.badRequest(.invalidOOBCode)
      }
      guard record.email == email else {
        throw IdentityToolkitError.badRequest(
          .invalidEmail, "The email provided does not match the sign-in email address.")
      }
      let emailUser = try liveUser(email: email, database)
      guard let user = tokenUser ?? emailUser else {
        if signupsDisabled { throw IdentityToolkitError.badRequest(.adminOnlyOperation) }
        try spend(record, database, now: now)
        let user = try engine.insertUser(
          email: try validatedEmail(email), passwordHash: engine.secrets.decoyHash, data: [:],
          confirmed: true, signsIn: true, database, now: now)
        return .success((try signedInByLink(user, database, now: now), true))
      }
      if let token, token.user.email != email {
        try checkCredentialChange(
          of: token.user, claims: token.claims, changesPassword: false, database, now: now)
      }
      try spend(record, database, now: now)
      if user.isBanned(at: now) { return .failure(.badRequest(.userDisabled)) }
      if let tokenUser, let emailUser, tokenUser.id != emailUser.id {
        return .failure(.badRequest(.emailExists))
      }
      if user.email != email {
        try moveEmail(of: user, to: email, database, now: now)
      } else {
        try setEmailVerified(true, of: user.id, database, now: now)
      }
      return .success((try signedInByLink(user, database, now: now), false))
    }.get()
  }

  /// Marks `user` as signing in by email link and finishes the sign-in: a session, or the
  /// second step a user with a verified factor waits for.
  private func signedInByLink(_ user: UserRecord, _ database: EngineAccounts, now: Int64) throws
    -> FirebaseSignInOutcome
  {
    try database.updateUser(user.id, [.emailLinkSignin(true), .updatedAt(now)])
    return try finishSignIn(try existingUser(user.id, database), .password, database, now: now)
  }
}
