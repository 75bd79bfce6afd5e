import AccountStore
import AuthCrypto
import Clocks
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension CodeKind {
  /// The email that carries a code of this kind.
  package var emailKind: OutboxMessage.Kind {
    switch self {
    case .confirmation: .confirmation
    case .recovery: .recovery
    case .magicLink: .magicLink
    case .emailChangeCurrent, .emailChangeNew: .emailChange
    case .invite: .invite
    case .reauthentication: .reauthentication
    // Texted, never emailed (``smsKind``).
    case .sms, .phoneChange: .confirmation
    }
  }

  /// The kinds a `POST /verify` of `type` may spend, as GoTrue matches them: `signup` and
  /// `invite` take the confirmation code (an invitation is one), `email` that or a sign-in
  /// code.
  package static func verified(by type: GoTrueOTPType) -> [CodeKind] {
    switch type {
    case .signup, .invite: [.confirmation, .invite]
    case .recovery: [.recovery]
    case .magiclink: [.magicLink, .recovery]
    case .email: [.confirmation, .invite, .magicLink, .recovery]
    case .emailChange: [.emailChangeNew, .emailChangeCurrent]
    }
  }

  /// The flow a PKCE link of this kind belongs to.
  var flowMethod: SignInMethod {
    switch self {
    case .confirmation: .emailSignup
    case .recovery: .recovery
    case .magicLink: .magicLink
    case .emailChangeCurrent, .emailChangeNew: .emailChange
    case .invite: .invite
    case .reauthentication, .sms, .phoneChange: .otp
    }
  }
}

extension EmbeddedGoTrue {
  /// Makes a fresh 6-digit code of `kind` for `user`, sent to `recipient` (the user's address
  /// unless given), replacing any unused one of the same kind. Stores only keyed hashes of the
  /// code and of its link's token hash. Call inside a write transaction.
  ///
  /// A code made for an admin (`generate_link`) is not mailed, so it counts against no email
  /// limit. With `pkce`, the link's token carries GoTrue's `pkce_` prefix and is found only
  /// with it (the caller keeps the flow state, ``beginFlow(_:method:userID:_:now:)``).
  package func issueCode(
    _ kind: CodeKind, for user: UserRecord, to recipient: String? = nil,
    _ database: EngineAccounts, now: Int64, redirectTo: String? = nil, mailed: Bool = true,
    pkce: Bool = false
  ) throws(GoTrueAPIError) -> PendingEmail {
    let recipient = recipient ?? user.email
    let limits = limiter(database, now)
    if mailed { try limits.consumeEmailSent() }
    // A fixed test code still takes its draw, so every other secret of a seeded run stays
    // what it would be without one.
    let drawn = random.digits(6)
    let code = configuration.testCodes[EmailRules.normalized(recipient)] ?? drawn
    let token = (pkce ? Self.pkcePrefix : "") + linkToken(email: recipient, code: code)
    // A reauthentication nonce is typed, never followed: it has no link.
    let linked = kind != .reauthentication
    let lifetime = Int64(configuration.codeLifetime * 1_000)
    try database.replaceCode(
      NewCode(
        userID: user.id, kind: kind, codeHash: codeHash(kind, userID: user.id, code: code),
        linkHash: linked ? linkHash(token) : nil, createdAt: now, expiresAt: now + lifetime),
      forgettingExpiredBefore: now - lifetime)
    let sent: UserChange =
      switch kind {
      case .confirmation, .invite: .confirmationSentAt(now)
      case .recovery, .magicLink: .recoverySentAt(now)
      case .emailChangeCurrent, .emailChangeNew: .emailChangeSentAt(now)
      case .reauthentication: .reauthenticationSentAt(now)
      case .sms: .confirmationSentAt(now)
      case .phoneChange: .phoneChangeSentAt(now)
      }
    try database.updateUser(user.id, [sent, .updatedAt(now)])
    // A reauthentication nonce goes only to a signed-in user, and waits on its own gap (in the
    // user's row), as in GoTrue; every other email waits on the gap of its address.
    if mailed, kind != .reauthentication { try limits.recordEmail(to: recipient) }
    let redirect = allowedRedirect(redirectTo)
    let link = EmailLink(
      kind: kind.emailKind, tokenHash: token, redirectTo: redirect)
    return PendingEmail(
      recipient: recipient, kind: kind.emailKind, code: code,
      link: linked ? link.url(configuration.emailLinks) : "",
      change: kind.emailKind == .emailChange ? (user.email, user.newEmail ?? recipient) : nil,
      user: user.goTrueUser, tokenHash: linked ? token : "", redirectTo: linked ? redirect : "")
  }

  package func deliver(_ emails: [PendingEmail], at date: Date) {
    for email in emails { outbox.deliver(email, from: configuration.sender, at: date) }
  }

  package func codeHash(_ kind: CodeKind, userID: String, code: String) -> [UInt8] {
    HMAC.sha256(key: secrets.codes, message: Array("\(kind.rawValue):\(userID):\(code)".utf8))
  }

  /// The `token` of a link to the code `code` sent to `email` (``EmailLink/tokenHash``).
  package func linkToken(email: String, code: String) -> String {
    EmailLink.tokenHash(email: email, code: code, key: secrets.codes)
  }

  package func linkHash(_ tokenHash: String) -> [UInt8] {
    HMAC.sha256(key: secrets.codes, message: Array("link:\(tokenHash.lowercased())".utf8))
  }

  // MARK: Sending

  /// `POST /recover`: a recovery code for a known email; the same answer for an unknown one.
  @concurrent
  public func recover(email: String, redirectTo: String?) async throws(GoTrueFailure) {
    try await recover(email: email, redirectTo: redirectTo, pkce: nil)
  }

  /// `POST /recover` with the `redirect_to` its link should lead to, and the PKCE challenge
  /// its flow began with. The answer takes the same time whether or not the account exists
  /// (``AnswerPacer``), its email sent within that time or, to a send-email hook, after it
  /// (``sendUnanswered(_:at:)``).
  @concurrent
  package func recover(email: String, redirectTo: String?, pkce: PKCEChallenge? = nil)
    async throws(GoTrueFailure)
  {
    try await pacer.paced { () throws(GoTrueFailure) in
      let mail = try mailCode(.recovery, to: email, redirectTo: redirectTo, pkce: pkce) { _ in
        true
      }
      sendUnanswered(mail.emails, at: mail.date)
    }
  }

  /// `POST /resend`: a new confirmation code if the account waits for one; only `signup`
  /// confirmations are resent.
  @concurrent
  public func resend(type: GoTrueOTPType, email: String, redirectTo: String?)
    async throws(GoTrueFailure)
  {
    try await resend(type: type, email: email, redirectTo: redirectTo, pkce: nil)
  }

  /// `POST /resend` with the `redirect_to` its link should lead to: `signup` resends a waiting
  /// confirmation, `email_change` the codes of a waiting change of address. Both answer alike
  /// and in the same time whether or not there is anything to resend (``AnswerPacer``).
  @concurrent
  package func resend(
    type: GoTrueOTPType, email: String, redirectTo: String?, pkce: PKCEChallenge? = nil
  ) async throws(GoTrueFailure) {
    switch type {
    case .signup:
      try await pacer.paced { () throws(GoTrueFailure) in
        let mail = try mailCode(.confirmation, to: email, redirectTo: redirectTo, pkce: pkce) {
          !$0.isConfirmed
        }
        sendUnanswered(mail.emails, at: mail.date)
      }
    case .emailChange:
      try await pacer.paced { () throws(GoTrueFailure) in
        let mail = try mailEmailChange(to: email, redirectTo: redirectTo, pkce: pkce)
        sendUnanswered(mail.emails, at: mail.date)
      }
    default:
      throw .api(
        GoTrueAPIError(
          status: 400, code: .validationFailed,
          message: "Missing one of these types: signup, email_change, sms, phone_change"))
    }
  }

  /// `POST /otp` with an email: a sign-in link and code for a confirmed account; for an unknown
  /// address, a new account (unless `createUser` is false or signups are off) confirmed by the
  /// email; for an unconfirmed one, its confirmation again.
  @concurrent
  package func sendSignInCode(
    email rawEmail: String, createUser: Bool, data: [String: JSONValue], redirectTo: String?,
    pkce: PKCEChallenge? = nil
  ) async throws(GoTrueFailure) {
    let email = try EmailRules.validated(rawEmail)
    let date = clock.now
    let emails = try answer(spending: \.email) {
      database, now throws(GoTrueAPIError) -> [PendingEmail] in
      try limiter(database, now).checkEmailInterval(email)
      if let user = try database.user(email: email) {
        let kind: CodeKind = user.isConfirmed ? .magicLink : .confirmation
        return [
          try issueFlowCode(kind, for: user, database, now: now, redirectTo: redirectTo, pkce: pkce)
        ]
      }
      guard createUser else {
        throw GoTrueAPIError(
          status: 422, code: .otpDisabled, message: "Signups not allowed for otp")
      }
      if configuration.disableSignup { throw Self.signupsDisabled }
      // The account gets no password anyone knows: the store's decoy hash, so a password
      // sign-in attempt costs the same as any other and never succeeds.
      let user = try insertUser(
        email: email, passwordHash: secrets.decoyHash, data: data,
        confirmed: configuration.autoconfirm,
        database, now: now)
      let kind: CodeKind = configuration.autoconfirm ? .magicLink : .confirmation
      return [
        try issueFlowCode(kind, for: user, database, now: now, redirectTo: redirectTo, pkce: pkce)
      ]
    }
    try await send(emails, at: date)
  }

  /// ``issueCode(_:for:to:_:now:redirectTo:mailed:pkce:)`` for a request that may come
  /// with a PKCE challenge: the flow state begins with the code, and the link carries the
  /// prefix.
  func issueFlowCode(
    _ kind: CodeKind, for user: UserRecord, _ database: EngineAccounts, now: Int64,
    redirectTo: String?, pkce: PKCEChallenge?
  ) throws(GoTrueAPIError) -> PendingEmail {
    if let pkce {
      try beginFlow(pkce, method: kind.flowMethod, userID: user.id, database, now: now)
    }
    return try issueCode(
      kind, for: user, database, now: now, redirectTo: redirectTo, pkce: pkce != nil)
  }

  /// Mails a fresh code of `kind` to `rawEmail` when it belongs to an account `eligible` accepts.
  /// Otherwise nothing is sent, but the answer, the per-address limit and the hourly budget of
  /// emails are spent the same (and callers pace the time taken), so the reply never tells
  /// whether the account exists. Answers the emails to send once the answer's time is paced.
  private func mailCode(
    _ kind: CodeKind, to rawEmail: String, redirectTo: String?, pkce: PKCEChallenge?,
    if eligible: (UserRecord) -> Bool
  ) throws(GoTrueFailure) -> (emails: [PendingEmail], date: Date) {
    let email = try EmailRules.validated(rawEmail)
    let date = clock.now
    let emails = try answer(spending: \.email) {
      database, now throws(GoTrueAPIError) -> [PendingEmail] in
      let limits = limiter(database, now)
      try limits.checkEmailInterval(email)
      guard let user = try database.user(email: email), eligible(user) else {
        try limits.consumeEmailSent()
        try limits.recordEmail(to: email)
        return []
      }
      switch kind {
      case .recovery: try audit(database, .user(user), .userRecoveryRequested, now: now)
      case .confirmation: try audit(database, .user(user), .userConfirmationRequested, now: now)
      default: break
      }
      return [
        try issueFlowCode(kind, for: user, database, now: now, redirectTo: redirectTo, pkce: pkce)
      ]
    }
    return (emails, date)
  }

  /// The codes of the waiting change of address of the account `rawEmail`, if there is one.
  /// The interval and the budget of emails are spent on `rawEmail` whether or not there is,
  /// as ``mailCode(_:to:redirectTo:pkce:if:)`` spends them, so a second request within the
  /// interval is refused for every address alike and tells no one whose change is waiting.
  private func mailEmailChange(to rawEmail: String, redirectTo: String?, pkce: PKCEChallenge?)
    throws(GoTrueFailure) -> (emails: [PendingEmail], date: Date)
  {
    let email = try EmailRules.validated(rawEmail)
    let date = clock.now
    let emails = try answer(spending: \.email) {
      database, now throws(GoTrueAPIError) -> [PendingEmail] in
      let limits = limiter(database, now)
      try limits.checkEmailInterval(email)
      try limits.recordEmail(to: email)
      guard let user = try database.user(email: email), let newEmail = user.newEmail else {
        try limits.consumeEmailSent()
        return []
      }
      return try issueEmailChange(
        for: user, to: newEmail, database, now: now, redirectTo: redirectTo, pkce: pkce)
    }
    return (emails, date)
  }

  /// The codes of a change of `user`'s address to `newEmail`: one to the new address, and with
  /// secure email change one to the current address too.
  func issueEmailChange(
    for user: UserRecord, to newEmail: String, _ database: EngineAccounts, now: Int64,
    redirectTo: String?, pkce: PKCEChallenge? = nil
  ) throws(GoTrueAPIError) -> [PendingEmail] {
    let pending = try database.updatedUser(
      user.id, [.newEmail(newEmail), .emailChangeConfirmed(false), .updatedAt(now)])
    if let pkce {
      try beginFlow(pkce, method: .emailChange, userID: user.id, database, now: now)
    }
    var emails = [
      try issueCode(
        .emailChangeNew, for: pending, to: newEmail, database, now: now, redirectTo: redirectTo,
        pkce: pkce != nil)
    ]
    // An anonymous user has no address to confirm from (GoTrue sends the current one's code
    // only when there is one).
    if configuration.secureEmailChange, !user.email.isEmpty {
      emails.append(
        try issueCode(
          .emailChangeCurrent, for: pending, database, now: now, redirectTo: redirectTo,
          pkce: pkce != nil))
    }
    return emails
  }
}
