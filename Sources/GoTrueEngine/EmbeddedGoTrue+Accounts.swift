import AccountStore
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
  public func signUp(
    email: String, password: String, data: [String: JSONValue], redirectTo: String?
  ) async throws(GoTrueFailure) -> GoTrueSignUpResponse {
    try await signUp(
      email: email, password: password, data: data, redirectTo: redirectTo, pkce: nil)
  }

  /// `POST /signup` with the `redirect_to` the confirmation link should lead to, and the PKCE
  /// challenge its flow began with.
  @concurrent
  package func signUp(
    email rawEmail: String, password: String, data: [String: JSONValue], redirectTo: String?,
    pkce: PKCEChallenge? = nil
  ) async throws(GoTrueFailure) -> GoTrueSignUpResponse {
    try checkSignupsAllowed()
    try checkPasswordStrength(password)
    let email = try EmailRules.validated(rawEmail)
    let date = clock.now
    // The request is counted before any hashing, so a flood over the limit costs no bcrypt.
    try answer(spending: \.email) { _, _ throws(GoTrueAPIError) in }
    // Every signup spends one hash, whether or not the email is taken: an answer that came
    // sooner for a taken email would tell who has an account.
    let hash = try hashPassword(password)
    try checkCancellation()
    let answered = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> SignUpAnswer in
      if let existing = try database.user(email: email) {
        return try answerExisting(
          existing, data: data, database, now: now, redirectTo: redirectTo, pkce: pkce)
      }
      if !configuration.autoconfirm { try limiter(database, now).checkEmailInterval(email) }
      let user = try insertUser(
        email: email, passwordHash: hash, data: data, confirmed: configuration.autoconfirm,
        signsIn: configuration.autoconfirm, database, now: now)
      let email: [String: JSONValue] = ["provider": .string("email")]
      if configuration.autoconfirm {
        try audit(database, .user(user), .userSignedUp, traits: email, now: now)
        try audit(database, .user(user), .login, traits: email, now: now)
        return SignUpAnswer(
          response: .session(
            try createSession(for: user, method: .password, in: database, now: now))
        )
      }
      try audit(database, .user(user), .userConfirmationRequested, traits: email, now: now)
      let sent = try issueFlowCode(
        .confirmation, for: user, database, now: now, redirectTo: redirectTo, pkce: pkce)
      let waiting = try database.existingUser(id: user.id)
      return SignUpAnswer(response: .user(waiting.goTrueUser), emails: [sent])
    }
    // An answer for a taken email must not tell so: its emails (a confirmation resent, or
    // none) go as a new account's do, neither waiting for the send-email hook nor failing
    // with it.
    sendUnanswered(answered.emails, at: date)
    if case .session(let session) = answered.response {
      return .session(try await withHookClaims(session, method: "password", isNew: true))
    }
    return answered.response
  }

  private struct SignUpAnswer: Sendable {
    var response: GoTrueSignUpResponse
    var emails: [PendingEmail] = []
  }

  /// 422 `signup_disabled` when the server takes no new accounts.
  func checkSignupsAllowed() throws(GoTrueFailure) {
    if configuration.disableSignup { throw .api(Self.signupsDisabled) }
  }

  static let signupsDisabled = GoTrueAPIError(
    status: 422, code: .signupDisabled, message: "Signups not allowed for this instance")

  /// Adds an account with its email identity. As GoTrue does, `user_metadata` starts as the
  /// identity's claims (`sub`, `email`, `email_verified`, `phone_verified`) with the signup
  /// `data`; the identity keeps the data as well.
  package func insertUser(
    id: String? = nil, email: String, passwordHash: String, data: [String: JSONValue],
    userMetadata: [String: JSONValue]? = nil, identityData: [String: JSONValue]? = nil,
    appMetadata: [String: JSONValue] = [:],
    role: String = "authenticated", confirmed: Bool, signsIn: Bool = false,
    _ database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) -> UserRecord {
    let id = id ?? random.uuidString()
    let metadata =
      userMetadata
      ?? UserRecord.identityClaims(id: id, email: email, confirmed: confirmed, extra: data)
    let provider: [String: JSONValue] = [
      "provider": .string("email"), "providers": .array([.string("email")]),
    ]
    var new = NewUser(
      id: id, email: email, passwordHash: passwordHash, identityID: random.uuidString(), now: now)
    new.emailConfirmedAt = confirmed ? now : nil
    new.lastSignInAt = signsIn ? now : nil
    new.userMetadata = metadata
    new.role = role
    new.appMetadata = UserRecord.merging(appMetadata, into: provider)
    new.identityData = identityData ?? data
    let user = try database.insertUser(new)
    try checkTokenFits(user)
    return user
  }

  /// GoTrue for a taken email: a confirmed one gets 422 with autoconfirm, else a fake user with
  /// no identities; an unconfirmed one gets its confirmation again. (GoTrue with autoconfirm
  /// signs an unconfirmed account in without checking its password; the engine refuses, since
  /// that would hand the account to whoever signs up with its address.)
  private func answerExisting(
    _ user: UserRecord, data: [String: JSONValue], _ database: EngineAccounts, now: Int64,
    redirectTo: String?, pkce: PKCEChallenge?
  ) throws(GoTrueAPIError) -> SignUpAnswer {
    if configuration.autoconfirm {
      throw GoTrueAPIError(
        status: 422, code: .userAlreadyExists, message: "User already registered")
    }
    let provider: [String: JSONValue] = ["provider": .string("email")]
    if user.isConfirmed {
      try audit(database, .user(user), .userRepeatedSignUp, traits: provider, now: now)
      let fake = GoTrueUser(
        id: random.uuidString(), role: "", email: user.email, confirmationSentAt: Date(millis: now),
        appMetadata: [
          "provider": .string("email"), "providers": .array([.string("email")]),
        ], userMetadata: data, identities: [], createdAt: Date(millis: now),
        updatedAt: Date(millis: now))
      return SignUpAnswer(response: .user(fake))
    }
    try limiter(database, now).checkEmailInterval(user.email)
    try audit(database, .user(user), .userConfirmationRequested, traits: provider, now: now)
    let email = try issueFlowCode(
      .confirmation, for: user, database, now: now, redirectTo: redirectTo, pkce: pkce)
    let sent = try database.existingUser(id: user.id)
    return SignUpAnswer(response: .user(sent.goTrueUser), emails: [email])
  }

  /// `POST /token?grant_type=password`: one bcrypt check whether or not the email is known;
  /// `email_not_confirmed` and `user_banned` only once the password is right.
  @concurrent
  public func signIn(email rawEmail: String, password: String) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    let email = EmailRules.normalized(rawEmail)
    return try await signIn(password: password, provider: "email") {
      database throws(GoTrueAPIError) in try database.user(email: email)
    }
  }

  /// A password grant for the user `find` looks up by `provider`'s address (`email` or
  /// `phone`), each answer in GoTrue's order.
  func signIn(
    password: String, provider: String,
    find: (EngineAccounts) throws(GoTrueAPIError) -> UserRecord?
  ) async throws(GoTrueFailure) -> GoTrueSession {
    let user = try answer(spending: \.token) { database, _ throws(GoTrueAPIError) in
      try find(database)
    }
    // An unknown email is checked against a decoy hashed at the configured cost, so it takes as
    // long as a wrong password for an account made under the same settings.
    let check = checkPassword(password, against: user?.passwordHash)
    try checkCancellation()
    guard let user, check.matches, user.deletedAt == nil else {
      throw .api(
        GoTrueAPIError(status: 400, code: .invalidCredentials, message: "Invalid login credentials")
      )
    }
    if user.isBanned(at: nowMillis) {
      throw .api(GoTrueAPIError(status: 400, code: .userBanned, message: "User is banned"))
    }
    if provider == "phone" {
      guard user.isPhoneConfirmed else {
        throw .api(
          GoTrueAPIError(status: 400, code: .phoneNotConfirmed, message: "Phone not confirmed"))
      }
    } else if !user.isConfirmed {
      throw .api(
        GoTrueAPIError(status: 400, code: .emailNotConfirmed, message: "Email not confirmed"))
    }
    let session = try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      try keepRehash(of: check, for: user.id, database)
      try database.updateUser(user.id, [.lastSignInAt(now)])
      guard let current = try database.user(id: user.id) else {
        throw GoTrueAPIError(
          status: 400, code: .invalidCredentials, message: "Invalid login credentials")
      }
      try audit(
        database, .user(current), .login, traits: ["provider": .string(provider)], now: now)
      return try createSession(for: current, method: .password, in: database, now: now)
    }
    return try await withHookClaims(session, method: "password", isNew: true)
  }

  /// `PUT /user` with a password, and the reauthentication nonce when one is needed.
  @concurrent
  public func updatePassword(_ password: String, accessToken: String, nonce: String? = nil)
    async throws(GoTrueFailure) -> GoTrueUser
  {
    try await updateUser(
      GoTrueUserAttributes(password: password, nonce: nonce), accessToken: accessToken)
  }

  /// `PUT /user`: a new password (not the current one; other sessions end and pending codes
  /// are voided; with ``EngineConfiguration/passwordChangeNeedsReauthentication``, the nonce
  /// of `GET /reauthenticate` for a session over a day old), metadata merged key by key, and a
  /// new email, which changes only once confirmed by email (from both addresses with secure
  /// email change; the links with PKCE when `pkce` is given). An anonymous user's first address
  /// applies at once with autoconfirm, which makes the user permanent.
  @concurrent
  package func updateUser(
    _ attributes: GoTrueUserAttributes, accessToken: String, redirectTo: String? = nil,
    pkce: PKCEChallenge? = nil
  ) async throws(GoTrueFailure) -> GoTrueUser {
    let newEmail = try attributes.email.map { email throws(GoTrueFailure) in
      try EmailRules.validated(email)
    }
    let newPhone = try phoneToChange(attributes)
    if let password = attributes.password { try checkPasswordStrength(password) }
    if attributes.appMetadata != nil {
      throw .api(
        GoTrueAPIError(
          status: 403, code: .notAdmin, message: "Updating app_metadata requires admin privileges"))
    }
    if attributes.phone != nil, !configuration.phoneProvider { throw Self.phoneDisabled }
    let password = attributes.password.flatMap { $0.isEmpty ? nil : $0 }
    let user = try answer(spending: nil) { database, now throws(GoTrueAPIError) -> UserRecord in
      let (claims, user) = try authorize(accessToken, database, now: now)
      try requireAAL2(
        toChange: attributes.password, newEmail, newPhone, of: user, claims, database)
      if user.isAnonymous, password != nil, newEmail == nil, newPhone == nil {
        throw GoTrueAPIError(
          status: 422, code: .validationFailed,
          message:
            "Updating password of an anonymous user without an email or phone is not allowed")
      }
      // Only an update that mails a code spends a request of the emailing budget.
      if let newEmail, newEmail != user.email { try limiter(database, now).consume(\.email) }
      if let newPhone, newPhone != user.phone { try limiter(database, now).consume(\.email) }
      return user
    }
    if attributes.password != nil {
      // A nonce is a 6-digit code: each one checked spends from the account's budget of
      // guesses, as a code sent to `/verify` does.
      let guesses = attributes.nonce?.isEmpty == false
      try answer(spending: guesses ? \.verify : nil, for: guesses ? user.id : nil) {
        database, now throws(GoTrueAPIError) in
        let (claims, user) = try authorize(accessToken, database, now: now)
        try checkReauthentication(
          nonce: attributes.nonce, of: user, session: claims.sessionID, database, now: now)
      }
    }
    var hash: String?
    if let password {
      if checkPassword(password, against: user.passwordHash).matches {
        throw .api(
          GoTrueAPIError(
            status: 422, code: .samePassword,
            message: "New password should be different from the old password."))
      }
      hash = try hashPassword(password)
    }
    try checkCancellation()
    let date = clock.now
    let (updated, emails, texts) = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> (GoTrueUser, [PendingEmail], [PendingSMS]) in
      let (claims, user) = try authorize(accessToken, database, now: now)
      var emails: [PendingEmail] = []
      var texts: [PendingSMS] = []
      if let newEmail, newEmail != user.email, try database.user(email: newEmail) != nil {
        throw GoTrueAPIError(
          status: 422, code: .emailExists,
          message: "A user with this email address has already been registered")
      }
      if let newPhone, newPhone != user.phone, try database.user(phone: newPhone) != nil {
        throw PhoneRules.taken
      }
      // The password first: a new one voids every pending code (GoTrue's UpdatePassword), and
      // an email change in the same request then sends its own.
      if let hash {
        try audit(database, .user(user), .userUpdatedPassword, now: now)
        try database.updateUser(user.id, [.passwordHash(hash), .updatedAt(now)])
        // Spent codes stay (until they expire), so a used link is told apart from a wrong one.
        try database.deleteUnusedCodes(ofUser: user.id)
        try database.deleteSessions(ofUser: user.id, except: claims.sessionID)
      }
      if let newEmail, newEmail != user.email {
        if user.isAnonymous, configuration.autoconfirm {
          try database.updateUser(
            user.id, [.email(newEmail), .confirmEmail(at: now), .updatedAt(now)])
          try makePermanent(user, database, now: now)
        } else {
          try limiter(database, now).checkEmailInterval(newEmail)
          emails = try issueEmailChange(
            for: user, to: newEmail, database, now: now, redirectTo: redirectTo, pkce: pkce)
        }
      }
      if let newPhone, newPhone != user.phone {
        let current = try database.existingUser(id: user.id)
        if configuration.smsAutoconfirm {
          // GoTrue verifies the change at once (`smsVerify` of a `phone_change`).
          try audit(database, .user(current), .userModified, now: now)
          _ = try confirmPhone(newPhone, of: current, database, now: now)
        } else {
          texts.append(try textCode(.phoneChange, for: current, to: newPhone, database, now: now))
        }
      }
      if let data = attributes.data {
        let current = try database.existingUser(id: user.id)
        try database.updateUser(
          user.id,
          [.userMetadata(UserRecord.merging(data, into: current.userMetadata)), .updatedAt(now)])
      }
      let updated = try database.existingUser(id: user.id)
      try checkTokenFits(updated)
      try audit(database, .user(updated), .userModified, now: now)
      return (updated.goTrueUser, emails, texts)
    }
    deliver(texts, at: date)
    try await send(emails, at: date)
    return updated
  }

  /// GoTrue's answer when asked to do anything with a phone number, its phone provider off.
  static let phoneDisabled = GoTrueFailure.api(
    GoTrueAPIError(status: 422, code: .phoneProviderDisabled, message: "Phone logins are disabled"))

  /// GoTrue's server-side password rules: a minimum length (`weak_password`) and bcrypt's
  /// 72-byte maximum (`validation_failed`).
  package func checkPasswordStrength(_ password: String) throws(GoTrueFailure) {
    try checkPasswordBytes(password)
    // GoTrue's checks in its order (`api/password.go`), every one that fails told at once.
    var messages: [String] = []
    var reasons: [String] = []
    if password.count < configuration.minimumPasswordLength {
      reasons.append("length")
      messages.append(
        "Password should be at least \(configuration.minimumPasswordLength) characters.")
    }
    let required = configuration.passwordRequiredCharacters
    let lacksOne = required.contains { set in
      !set.isEmpty && !password.unicodeScalars.contains { set.unicodeScalars.contains($0) }
    }
    if lacksOne {
      reasons.append("characters")
      messages.append(
        "Password should contain at least one character of each: "
          + required.joined(separator: ", ") + ".")
    }
    guard reasons.isEmpty else {
      throw .api(
        GoTrueAPIError(
          status: 422, code: .weakPassword, message: messages.joined(separator: " "),
          weakPasswordReasons: reasons))
    }
  }

  /// bcrypt's limit alone: at most 72 bytes, and no NUL (which would end the password early).
  func checkPasswordBytes(_ password: String) throws(GoTrueFailure) {
    if password.utf8.count > configuration.maximumPasswordBytes || password.utf8.contains(0) {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .validationFailed,
          message: "Password cannot be longer than \(configuration.maximumPasswordBytes) characters"
        ))
    }
  }

  package func hashPassword(_ password: String) throws(GoTrueFailure) -> String {
    do {
      return try Bcrypt.hash(password, cost: configuration.hashCost, random: random)
    } catch {
      throw .api(GoTrueAPIError(status: 500, code: .unexpectedFailure, message: "\(error)"))
    }
  }
}
