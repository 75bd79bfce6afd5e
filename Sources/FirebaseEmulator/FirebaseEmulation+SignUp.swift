import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// `accounts:signUp`, as the emulator answers it (`operations.ts`, `signUp`): a user's own
/// sign-up with an email and password or anonymously, a user linking an email and password to
/// their account, and an admin making an account.
extension FirebaseEmulation {
  /// Signs up as `request` asks, with the checks in the emulator's order. A user (`privileged`
  /// false): `UNEXPECTED_PARAMETER : User ID`, `MISSING_EMAIL`, `MISSING_PASSWORD`,
  /// `ADMIN_ONLY_OPERATION` (the server takes no new users), `INVALID_EMAIL`, `EMAIL_EXISTS`,
  /// `WEAK_PASSWORD`, then the ID token's errors; an admin: `UNEXPECTED_PARAMETER : User ID`,
  /// `DUPLICATE_LOCAL_ID`, `INVALID_PHONE_NUMBER : Invalid format.` (the emulator's `+`
  /// first, then E.164), `PHONE_NUMBER_EXISTS`, `INVALID_EMAIL`, `EMAIL_EXISTS`,
  /// `WEAK_PASSWORD`.
  ///
  /// Neither email nor password (nor ID token) from a user is an anonymous sign-up; with an ID
  /// token, the email and password are linked to that user, whose display name becomes the
  /// request's (none when it has none). A user gets a session; an admin does not.
  @concurrent
  package func signUp(_ request: FirebaseSignUpRequest, privileged: Bool)
    async throws(IdentityToolkitError) -> FirebaseSignedUp
  {
    let localID = request.localId.flatMap { $0.isEmpty ? nil : $0 }
    let idToken = request.idToken.flatMap { $0.isEmpty ? nil : $0 }
    let password = request.password.flatMap { $0.isEmpty ? nil : $0 }
    var method: FirebaseSignInMethod?
    var phone: String?
    if privileged {
      if idToken != nil, localID != nil { throw .badRequest(.unexpectedParameter, "User ID") }
      if let localID { try checkNewID(localID) }
      if let raw = request.phoneNumber, !raw.isEmpty {
        let digits = try FirebasePhoneNumber.stored(raw)
        if try read({ database, _ in try database.user(phone: digits) != nil }) {
          throw .badRequest(.phoneNumberExists)
        }
        phone = digits
      }
    } else {
      if localID != nil { throw .badRequest(.unexpectedParameter, "User ID") }
      if idToken != nil || password != nil || request.email?.isEmpty == false {
        guard request.email?.isEmpty == false else { throw .badRequest(.missingEmail) }
        guard password != nil else { throw .badRequest(.missingPassword) }
        method = .password
      } else {
        method = .anonymous
      }
      if idToken == nil, engine.configuration.disableSignup {
        throw .badRequest(.adminOnlyOperation)
      }
    }
    var email: String?
    // An empty email is checked (and refused) where a user's sign-up expects one, so that
    // `{"email":"","password":""}` is no anonymous sign-up.
    if let raw = request.email, !raw.isEmpty || method != nil {
      email = try validatedEmail(raw)
      if try read({ database, _ in try database.user(email: email ?? "") != nil }) {
        throw .badRequest(.emailExists)
      }
    }
    if let password { try checkPassword(password) }
    if let idToken {
      _ = try read { database, now in try verifiedUser(idToken: idToken, database, now: now) }
    }
    let hash = try password.map { password throws(IdentityToolkitError) in try self.hash(password) }
    var fields = SignUpFields(email: email, hash: hash, phone: phone)
    if privileged {
      (fields.displayName, fields.photoURL) = (.some(request.displayName), .some(request.photoUrl))
      (fields.emailVerified, fields.disabled) = (request.emailVerified ?? false, request.disabled)
    } else if method == .password {
      (fields.displayName, fields.emailVerified) = (.some(request.displayName), false)
    }
    return try write { database, now in
      let user: UserRecord
      if let idToken {
        let token = try verifiedUser(idToken: idToken, database, now: now)
        user = token.user
        // Linking a new email and password is a change of the account's credentials.
        try checkCredentialChange(
          of: user, claims: token.claims, changesPassword: hash != nil, database, now: now)
      } else {
        if let localID, try database.user(id: localID) != nil {
          throw IdentityToolkitError.badRequest(.duplicateLocalID)
        }
        user = try insertUser(
          id: localID, email: email, anonymous: method == .anonymous, database, now: now)
      }
      let written = try write(fields, to: user, database, now: now)
      guard let method, !privileged else {
        return FirebaseSignedUp(account: try account(written, database, now: now), session: nil)
      }
      let session = try startSession(for: written, method, database, now: now)
      return FirebaseSignedUp(account: session.account, session: session)
    }
  }

  /// `accounts:signUp` by a user with an email and a password: a new account, signed in at
  /// once (not yet verified, as in Firebase).
  @concurrent
  package func signUp(email: String, password: String, displayName: String?)
    async throws(IdentityToolkitError) -> FirebaseSession
  {
    var request = FirebaseSignUpRequest()
    (request.email, request.password, request.displayName) = (email, password, displayName)
    guard let session = try await signUp(request, privileged: false).session else {
      throw IdentityToolkitError.badRequest(.invalidIDToken)
    }
    return session
  }

  /// `INVALID_LOCAL_ID` for an id the Admin SDKs would refuse (1 to 128 characters), then
  /// `DUPLICATE_LOCAL_ID` when it is taken.
  func checkNewID(_ id: String) throws(IdentityToolkitError) {
    guard id.count <= 128 else {
      throw .badRequest("INVALID_LOCAL_ID", "The uid must be 1 to 128 characters")
    }
    if try read({ database, _ in try database.user(id: id) != nil }) {
      throw .badRequest(.duplicateLocalID)
    }
  }

  /// A new account signed in at `now`: with `email` as GoTrue's email users are (unconfirmed,
  /// with an email identity), else one known by its id (anonymous when `anonymous`).
  private func insertUser(
    id: String?, email: String?, anonymous: Bool, _ database: EngineAccounts, now: Int64
  ) throws -> UserRecord {
    if let email {
      if try database.user(email: email) != nil {
        throw IdentityToolkitError.badRequest(.emailExists)
      }
      return try engine.insertUser(
        id: id, email: email, passwordHash: engine.secrets.decoyHash, data: [:],
        confirmed: false, signsIn: true, database, now: now)
    }
    return try engine.insertUserWithoutAddress(id: id, anonymous: anonymous, database, now: now)
  }

  /// Writes a sign-up's `fields` to `user` (new or linking) and signs it in at `now`: a
  /// password moves `validSince` to this second; an anonymous user given an email and a
  /// password becomes permanent.
  private func write(
    _ fields: SignUpFields, to user: UserRecord, _ database: EngineAccounts, now: Int64
  ) throws -> UserRecord {
    var changes: [UserChange] = [.lastSignInAt(now), .updatedAt(now)]
    if let email = fields.email, email != user.email {
      if try database.user(email: email) != nil {
        throw IdentityToolkitError.badRequest(.emailExists)
      }
      changes += [.email(email), .newEmail(nil)]
    }
    if let hash = fields.hash {
      changes += [.passwordHash(hash), .passwordUpdatedAt(now), .validSince(now / 1_000 * 1_000)]
    }
    if let name = fields.displayName { changes.append(.displayName(name)) }
    if let photo = fields.photoURL { changes.append(.photoURL(photo)) }
    if fields.disabled == true { changes.append(.bannedUntil(Self.disabledUntil)) }
    try database.updateUser(user.id, changes)
    if let phone = fields.phone {
      try setPhone(phone, of: try existingUser(user.id, database), database, now: now)
    }
    if let verified = fields.emailVerified {
      try setEmailVerified(verified, of: user.id, database, now: now)
    }
    var written = try existingUser(user.id, database)
    if written.isAnonymous, !written.email.isEmpty, fields.hash != nil {
      try engine.makePermanent(written, database, now: now)
      written = try existingUser(user.id, database)
    }
    if fields.hash != nil { try revokeSessions(of: user.id, through: now / 1_000, database) }
    try checkIDTokenFits(written)
    return written
  }
}

/// What a sign-up writes, as the emulator's `updates`: a double optional is replaced (with
/// nothing when the inner value is `nil`), a single one set when given.
private struct SignUpFields {
  var email: String?
  var hash: String?
  /// An admin's phone number, as the store keeps it.
  var phone: String? = nil
  var displayName: String??
  var photoURL: String??
  var emailVerified: Bool?
  var disabled: Bool?
}

/// What a sign-up asks for: the wire's own request (`accounts:signUp`, or an admin's
/// `projects/{id}/accounts`), the same value the client sends and the server reads.
package typealias FirebaseSignUpRequest = IdentityToolkitRequest.SignUp

/// What a sign-up made: the account, and the session of a user's own sign-up.
package struct FirebaseSignedUp: Equatable, Sendable {
  /// The account.
  package var account: FirebaseAccount
  /// The new session; none for an admin's sign-up.
  package var session: FirebaseSession?
}
