import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// `accounts:update` without an out-of-band code, as the emulator answers it
/// (`operations.ts`, `setAccountInfoImpl`).
extension FirebaseEmulation {
  /// Changes the user of `target` as `changes` ask. Checks, in the emulator's order: the ID
  /// token's errors, then `OPERATION_NOT_ALLOWED` for `disabled` with an ID token (or
  /// `USER_NOT_FOUND` for an id), `INVALID_EMAIL`, `EMAIL_EXISTS`, `WEAK_PASSWORD`, and for an
  /// admin's phone number `INVALID_PHONE_NUMBER : Invalid format.`, `PHONE_NUMBER_EXISTS`.
  ///
  /// Anyone may change the email (unverified again; the first address is kept as
  /// `initialEmail` unless the session is anonymous), the password and the profile; an admin
  /// (`privileged`) also `disabled`, `emailVerified`, the phone number, custom claims,
  /// `createdAt`, `lastLoginAt` and `validSince`; `deleteProvider: ["phone"]` takes the number
  /// away, and any other provider (`google.com`) its linked entry. A new email or password, or any `validSince`, moves
  /// `validSince` to this second (an admin's value wins): older tokens are refused, and when
  /// the session's provider is known (an ID token's, or `password` with a new password) the
  /// answer carries new tokens.
  @concurrent
  package func update(
    _ target: FirebaseAccountTarget, _ changes: FirebaseAccountChanges, privileged: Bool
  ) async throws(IdentityToolkitError) -> FirebaseAccountUpdate {
    let user = try read { database, now in try resolve(target, database, now: now).0 }
    if case .idToken = target, changes.disabled != nil {
      throw .badRequest(.operationNotAllowed)
    }
    var newEmail: String?
    if let raw = changes.email {
      let email = try validatedEmail(raw)
      if email != user.email, try read({ database, _ in try database.user(email: email) }) != nil {
        throw .badRequest(.emailExists)
      }
      newEmail = email
    }
    if let password = changes.password { try checkPassword(password) }
    var phone: String?
    if privileged, let raw = changes.phoneNumber {
      let digits = try FirebasePhoneNumber.stored(raw)
      if digits != user.phone {
        try read { database, _ in try checkPhoneFree(digits, for: user.id, database) }
        phone = digits
      }
    }
    let hash = try changes.password.map { password throws(IdentityToolkitError) in
      try self.hash(password)
    }
    let (update, recovery) = try write {
      database, now -> (FirebaseAccountUpdate, IssuedCode?) in
      var (current, method, claims) = try resolve(target, database, now: now)
      let previousEmail = current.email
      var edit = AccountEdit(now: now)
      let emailChanged = newEmail.map { $0 != current.email } ?? false
      if let claims,
        emailChanged || hash != nil || changes.deletePassword || changes.deleteEmail
          || !changes.deletedProviders.isEmpty
      {
        try checkCredentialChange(
          of: current, claims: claims, changesPassword: hash != nil, database, now: now)
      }
      if let newEmail, emailChanged {
        try edit.changeEmail(of: current, to: newEmail, database)
      }
      if let hash {
        try edit.setPassword(hash, of: current, database)
        method = FirebaseSignInMethod(
          provider: FirebaseSignInMethod.password.provider, secondFactor: method?.secondFactor)
      }
      var validSince: Int64? =
        hash != nil || changes.validSince != nil || emailChanged ? now / 1_000 : nil
      if let name = changes.displayName { edit.set(.displayName(name)) }
      if let photo = changes.photoURL { edit.set(.photoURL(photo)) }
      if privileged {
        if let disabled = changes.disabled {
          edit.set(.bannedUntil(disabled ? Self.disabledUntil : nil))
        }
        if let verified = changes.emailVerified { edit.verified = verified }
        if let claims = changes.customAttributes { edit.set(.customClaims(claims)) }
        if let created = changes.createdAt { edit.set(.createdAt(created)) }
        if let login = changes.lastLoginAt { edit.set(.lastSignInAt(login)) }
        if let seconds = changes.validSince { validSince = seconds }
      }
      if changes.deleteDisplayName { edit.set(.displayName(nil)) }
      if changes.deletePhotoURL { edit.set(.photoURL(nil)) }
      if changes.deletePassword || changes.deletedProviders.contains("password") {
        edit.set(.passwordHash(engine.secrets.decoyHash))
      }
      if changes.deleteEmail || changes.deletedProviders.contains("password") {
        edit.removeEmail()
      }
      let unlinked = changes.deletedProviders.filter { $0 != "password" && $0 != "phone" }
      try database.deleteLinkedIdentities(ofUser: current.id, providers: unlinked)
      if let validSince { edit.set(.validSince(validSince * 1_000)) }
      current = try edit.apply(to: current, database)
      if let phone { try setPhone(phone, of: current, database, now: now) }
      if changes.deletedProviders.contains("phone") {
        try removePhone(of: try existingUser(current.id, database), database, now: now)
      }
      if let verified = edit.verified {
        try setEmailVerified(verified, of: current.id, database, now: now)
      }
      if current.isAnonymous, !current.email.isEmpty, hash != nil {
        try engine.makePermanent(current, database, now: now)
      }
      let written = try existingUser(current.id, database)
      try checkIDTokenFits(written)
      if let validSince { try revokeSessions(of: written.id, through: validSince, database) }
      // The first address is kept (`initialEmail`, unless the session is anonymous), and a
      // RECOVER_EMAIL code is logged to it, as the emulator does.
      let recovery =
        emailChanged
        ? try recordEmailChange(
          ofUser: written.id, from: previousEmail, to: written.email,
          anonymous: method?.provider == FirebaseSignInMethod.anonymous.provider, database,
          now: now)
        : nil
      let recorded = try existingUser(written.id, database)
      guard validSince != nil, let method else {
        return (
          FirebaseAccountUpdate(
            account: try account(recorded, database, now: now), session: nil, newEmail: newEmail),
          recovery
        )
      }
      // The new session keeps the provider and the second factor the old one proved, but no
      // custom token's claims (as the emulator's new tokens carry none).
      let session = try startSession(
        for: recorded,
        FirebaseSignInMethod(provider: method.provider, secondFactor: method.secondFactor),
        database, now: now)
      return (
        FirebaseAccountUpdate(account: session.account, session: session, newEmail: newEmail),
        recovery
      )
    }
    publish(recovery.map { [$0] } ?? [])
    return update
  }

  /// The user `target` names, how its session began and the ID token's claims (neither for
  /// an admin naming an id): the ID token's errors, or `USER_NOT_FOUND`.
  private func resolve(_ target: FirebaseAccountTarget, _ database: EngineAccounts, now: Int64)
    throws -> (UserRecord, FirebaseSignInMethod?, [String: JSONValue]?)
  {
    switch target {
    case .idToken(let idToken):
      let (user, claims) = try verifiedUser(idToken: idToken, database, now: now)
      return (user, FirebaseSignInMethod(idTokenClaims: claims), claims)
    case .id(let id):
      return (try existingUser(id, database), nil, nil)
    }
  }
}

/// The column changes of one `accounts:update`, applied in one statement.
private struct AccountEdit {
  let now: Int64
  var changes: [UserChange] = []
  /// Whether the email ends verified (`nil`: as it is).
  var verified: Bool?

  init(now: Int64) {
    self.now = now
    changes = [.updatedAt(now)]
  }

  /// Adds `change`; a later change to the same column replaces it when applied.
  mutating func set(_ change: UserChange) {
    changes.append(change)
  }

  /// A new address, unverified; codes sent to the old one must not verify it.
  mutating func changeEmail(of user: UserRecord, to email: String, _ database: EngineAccounts)
    throws
  {
    if try database.user(email: email) != nil {
      throw IdentityToolkitError.badRequest(.emailExists)
    }
    set(.email(email))
    set(.newEmail(nil))
    verified = false
    if let metadata = user.userMetadata(withEmail: email) { set(.userMetadata(metadata)) }
    try database.deleteUnusedCodes(ofUser: user.id, kinds: CodeKind.sentToTheAddress)
  }

  /// A new password; a waiting reset code no longer applies.
  mutating func setPassword(_ hash: String, of user: UserRecord, _ database: EngineAccounts)
    throws
  {
    set(.passwordHash(hash))
    set(.passwordUpdatedAt(now))
    try database.deleteUnusedCodes(ofUser: user.id, kinds: [.recovery])
  }

  /// No email, and so no verification and no sign-in by email link.
  mutating func removeEmail() {
    set(.email(nil))
    set(.newEmail(nil))
    set(.emailLinkSignin(false))
    verified = false
  }

  /// Runs the edit; the user as it now stands.
  func apply(to user: UserRecord, _ database: EngineAccounts) throws -> UserRecord {
    try database.updatedUser(user.id, changes)
  }
}
