import AccountStore
import AuthCrypto
import Clocks
import GoTrue

/// Spending emailed codes and links: `POST /verify` and `GET /verify`.
extension EmbeddedGoTrue {
  /// `POST /verify` with an email and a code: spends the code, confirms the email, and signs in.
  ///
  /// Unlike GoTrue, which answers `otp_expired` for all three, a wrong, an expired and an
  /// already-used code get distinct codes (`otp_invalid`, `otp_expired`, `otp_already_used`);
  /// the server sends them as `otp_expired` with the reason in a header.
  @concurrent
  public func verify(type: GoTrueOTPType, email: String, token code: String)
    async throws(GoTrueFailure) -> GoTrueSession
  {
    try Self.session(of: try await verifyCode(type: type, email: email, code: code))
  }

  /// The session a verification gave, or what stands in its way for a caller that needs one.
  private static func session(of outcome: GoTrueVerifyOutcome) throws(GoTrueFailure)
    -> GoTrueSession
  {
    switch outcome {
    case .session(let session): return session
    case .emailChangePending(let message):
      throw .api(GoTrueAPIError(status: 409, code: nil, message: message))
    case .authorizationCode:
      // Only a link followed in a browser gives a code, and these calls follow none.
      throw .api(
        GoTrueAPIError(
          status: 400, code: .flowStateNotFound,
          message: "a PKCE link gives its session through the code exchange"))
    }
  }

  /// `POST /verify` with an email and a code, with every outcome a server can answer.
  @concurrent
  package func verifyCode(type: GoTrueOTPType, email rawEmail: String, code: String)
    async throws(GoTrueFailure) -> GoTrueVerifyOutcome
  {
    let email = EmailRules.normalized(rawEmail)
    let outcome = try answer(spending: \.verify, for: email) {
      database, now throws(GoTrueAPIError) -> GoTrueVerifyOutcome in
      guard CodeRules.isWellFormed(code) else { throw Self.invalidCode }
      // A used code of one kind must not hide an unused one of another with the same digits
      // (a fixed test code, `--test-otp`, is the same for every kind): it answers only when
      // nothing else matched.
      var used: (token: StoredCode, user: UserRecord)?
      for kind in CodeKind.verified(by: type) {
        let owner =
          kind == .emailChangeNew
          ? try database.user(newEmail: email)
          : try database.user(email: email)
        guard let user = owner,
          let token = try database.code(
            ofUser: user.id, kind: kind, codeHash: codeHash(kind, userID: user.id, code: code))
        else { continue }
        if token.usedAt != nil {
          used = used ?? (token, user)
          continue
        }
        switch try spend(token, of: user, database, now: now, failure: Self.invalidCode) {
        case .emailChangePending(let message):
          return .emailChangePending(message: message)
        case .proved(let user):
          return .session(try createSession(for: user, method: .otp, in: database, now: now))
        }
      }
      if let used {
        // Refused as already used.
        _ = try spend(used.token, of: used.user, database, now: now, failure: Self.invalidCode)
      }
      throw Self.invalidCode
    }
    return try await withHookClaims(outcome)
  }

  /// `POST /verify` (and `GET /verify`) with the token hash from a link.
  ///
  /// A link's token is keyed (``EmailLink/tokenHash(email:code:key:)``): guessing one is
  /// guessing 224 bits, not a 6-digit code, so a miss tells nothing about any account's code
  /// and spends no budget, neither an account's nor one that all accounts share (one client's
  /// misses would then block everyone's links).
  ///
  /// With `inBrowser` (`GET /verify`, the link followed), a PKCE link (``pkcePrefix``) gives
  /// the auth code of the user's flow instead of a session; `POST /verify` always signs in.
  @concurrent
  package func verifyLink(type: GoTrueOTPType, tokenHash: String, inBrowser: Bool = false)
    async throws(GoTrueFailure) -> GoTrueVerifyOutcome
  {
    let hash = linkHash(tokenHash)
    let flow = SignInMethod(flowOf: type)
    let isPKCE = inBrowser && tokenHash.hasPrefix(Self.pkcePrefix)
    let outcome = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> GoTrueVerifyOutcome in
      let kinds = CodeKind.verified(by: type)
      guard
        let token = try database.code(linkHash: hash),
        kinds.contains(token.kind),
        let user = try database.user(id: token.userID)
      else { throw Self.invalidLink }
      switch try spend(token, of: user, database, now: now, failure: Self.invalidLink) {
      case .emailChangePending(let message):
        return .emailChangePending(message: message)
      case .proved(let user) where isPKCE:
        return .authorizationCode(
          try issueAuthCode(userID: user.id, method: flow, database, now: now))
      case .proved(let user):
        return .session(try createSession(for: user, method: .otp, in: database, now: now))
      }
    }
    return try await withHookClaims(outcome)
  }

  /// What spending a code did.
  private enum Spent {
    /// It proved who the user is: `user` as they are now, to be signed in.
    case proved(UserRecord)
    /// It confirmed one address of a secure email change; the other must confirm too.
    case emailChangePending(String)
  }

  /// Spends `token` and does what it was sent for.
  private func spend(
    _ token: StoredCode, of user: UserRecord, _ database: EngineAccounts, now: Int64,
    failure: GoTrueAPIError
  ) throws(GoTrueAPIError) -> Spent {
    if token.usedAt != nil {
      throw GoTrueAPIError(status: 403, code: .otpAlreadyUsed, message: failure.message)
    }
    if token.expiresAt <= now {
      throw GoTrueAPIError(status: 403, code: .otpExpired, message: failure.message)
    }
    try database.markCodeUsed(token.id, at: now)
    switch token.kind {
    case .confirmation, .recovery, .magicLink, .invite:
      // Each proves the address belongs to the user; GoTrue's log says a sign-up for a first
      // confirmation, a sign-in for a link to a confirmed account.
      let signsUp = !user.isConfirmed || token.kind == .confirmation || token.kind == .invite
      try audit(
        database, .user(user), signsUp ? .userSignedUp : .login,
        traits: signsUp ? ["provider": .string("email")] : nil, now: now)
      try confirmEmail(of: user, database, now: now)
    case .emailChangeCurrent, .emailChangeNew:
      if let message = try changeEmail(of: user, database, now: now) {
        return .emailChangePending(message)
      }
      try audit(database, .user(user), .userModified, now: now)
    case .reauthentication, .sms, .phoneChange:
      // Checked by a password change, or by ``verifyPhone(_:phone:code:)``.
      throw failure
    }
    guard let proved = try database.user(id: user.id) else { throw failure }
    return .proved(proved)
  }

  private func confirmEmail(of user: UserRecord, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError)
  {
    var changes: [UserChange] = [.lastSignInAt(now), .updatedAt(now)]
    if !user.isConfirmed {
      var metadata = user.userMetadata
      metadata["email_verified"] = .bool(true)
      changes += [.emailConfirmedAt(now), .userMetadata(metadata)]
    }
    try database.updateUser(user.id, changes)
  }

  /// Completes one half of an email change: the change itself once both addresses confirmed
  /// (one is enough without secure email change, or with autoconfirm), else GoTrue's note.
  private func changeEmail(of user: UserRecord, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError)
    -> String?
  {
    guard let newEmail = user.newEmail else { throw Self.invalidCode }
    // An anonymous user has no current address to confirm from.
    let needsBoth =
      configuration.secureEmailChange && !configuration.autoconfirm && !user.email.isEmpty
    if needsBoth, !user.emailChangeConfirmed {
      try database.updateUser(user.id, [.emailChangeConfirmed(true), .updatedAt(now)])
      return GoTrueVerifyOutcome.otherAddressMustConfirm
    }
    if try database.user(email: newEmail) != nil {
      throw GoTrueAPIError(
        status: 422, code: .emailExists,
        message: "A user with this email address has already been registered")
    }
    try database.updateUser(
      user.id,
      [
        .email(newEmail), .newEmail(nil), .emailChangeSentAt(nil), .emailChangeConfirmed(false),
        .confirmEmail(at: now),
        .userMetadata(user.userMetadata(withEmail: newEmail) ?? user.userMetadata),
        .lastSignInAt(now), .updatedAt(now),
      ])
    if user.isAnonymous { try makePermanent(user, database, now: now) }
    try database.deleteUnusedCodes(ofUser: user.id, kinds: [.emailChangeCurrent, .emailChangeNew])
    return nil
  }

  static let invalidCode = GoTrueAPIError(
    status: 403, code: .otpInvalid, message: "Token has expired or is invalid")

  private static let invalidLink = GoTrueAPIError(
    status: 403, code: .otpInvalid, message: "Email link is invalid or has expired")

  /// The address the code behind a link's `tokenHash` was mailed to, whether the code is
  /// spent, expired or fresh; `nil` for a token that names no code of this store. Only the
  /// holder of the link (who read that mailbox) can ask, and nothing is spent.
  public func recipient(ofLinkTokenHash tokenHash: String) async -> String? {
    let hash = linkHash(tokenHash)
    return try? withDatabase { database throws(GoTrueAPIError) -> String? in
      guard let token = try database.code(linkHash: hash),
        let user = try database.user(id: token.userID)
      else { return nil }
      let address = token.kind == .emailChangeNew ? user.newEmail : user.email
      return address.flatMap { $0.isEmpty ? nil : $0 }
    }
  }

  /// `POST /verify` with a link's `token_hash`, for a client holding the link alone.
  @concurrent
  public func verify(type: GoTrueOTPType, tokenHash: String) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    try Self.session(of: try await verifyLink(type: type, tokenHash: tokenHash))
  }
}
