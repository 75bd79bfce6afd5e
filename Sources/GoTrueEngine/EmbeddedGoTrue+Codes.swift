import AuthCrypto
import Clocks
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An email decided inside a transaction, delivered to the outbox only once it commits.
struct PendingEmail: Sendable {
  var recipient: String
  var kind: OutboxMessage.Kind
  var code: String
  var link: String
}

extension EmbeddedGoTrue {
  /// Makes a fresh 6-digit code for `user`, replacing any unused one of the same kind, and
  /// stores only its keyed hash. Call inside a write transaction.
  func issueCode(
    _ kind: OutboxMessage.Kind, for user: UserRecord, _ database: SQLiteDatabase, now: Int64
  ) throws -> PendingEmail {
    let code = random.digits(6)
    let lifetime = Int64(configuration.codeLifetime * 1_000)
    try database.run(
      "DELETE FROM one_time_tokens WHERE user_id = ? AND kind = ? AND used_at IS NULL",
      .text(user.id), .text(kind.rawValue))
    try database.run(
      "DELETE FROM one_time_tokens WHERE user_id = ? AND expires_at < ?", .text(user.id),
      .integer(now - lifetime))
    try database.run(
      """
      INSERT INTO one_time_tokens (user_id, kind, token_hash, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?)
      """, .text(user.id), .text(kind.rawValue), .blob(codeHash(kind, userID: user.id, code: code)),
      .integer(now), .integer(now + lifetime))
    let sentColumn = kind == .confirmation ? "confirmation_sent_at" : "recovery_sent_at"
    try database.run(
      "UPDATE users SET \(sentColumn) = ?, updated_at = ? WHERE id = ?", .integer(now),
      .integer(now), .text(user.id))
    try limiter(database, now).recordEmail(to: user.email)
    return PendingEmail(
      recipient: user.email, kind: kind, code: code,
      link: EmailLink(kind: kind, email: user.email, code: code).url(
        scheme: configuration.linkScheme))
  }

  func deliver(_ emails: [PendingEmail], at date: Date) {
    for email in emails {
      outbox.deliver(
        to: email.recipient, kind: email.kind, at: date, code: email.code, link: email.link)
    }
  }

  private func codeHash(_ kind: OutboxMessage.Kind, userID: String, code: String) -> [UInt8] {
    HMAC.sha256(key: secrets.codes, message: Array("\(kind.rawValue):\(userID):\(code)".utf8))
  }

  /// `POST /recover`: a recovery code for a known email; the same answer for an unknown one.
  @concurrent
  public func recover(email: String) async throws(GoTrueFailure) {
    try mailCode(.recovery, to: email) { _ in true }
  }

  /// `POST /resend`: a new confirmation code if the account waits for one; only `signup`
  /// confirmations are resent.
  @concurrent
  public func resend(type: GoTrueOTPType, email: String) async throws(GoTrueFailure) {
    guard type == .signup else {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .validationFailed, message: "Missing one of these types: signup"))
    }
    try mailCode(.confirmation, to: email) { !$0.isConfirmed }
  }

  /// Mails a fresh code of `kind` to `rawEmail` when it belongs to an account `eligible` accepts.
  /// Otherwise nothing is sent, but the answer, the time taken (one insert aside) and the
  /// per-address limit are the same, so the reply never tells whether the account exists.
  private func mailCode(
    _ kind: OutboxMessage.Kind, to rawEmail: String, if eligible: (UserRecord) -> Bool
  ) throws(GoTrueFailure) {
    let email = try EmailRules.validated(rawEmail)
    let date = clock.now
    let emails = try answer(spending: \.email) { database, now -> [PendingEmail] in
      let limits = limiter(database, now)
      try limits.checkEmailInterval(email)
      guard let user = try database.user(email: email), eligible(user) else {
        try limits.recordEmail(to: email)
        return []
      }
      return [try issueCode(kind, for: user, database, now: now)]
    }
    deliver(emails, at: date)
  }

  /// `POST /verify` with an email and a code: spends the code, confirms the email, and signs in.
  ///
  /// Unlike GoTrue, which answers `otp_expired` for all three, a wrong, an expired and an
  /// already-used code get distinct codes (`otp_invalid`, `otp_expired`, `otp_already_used`).
  @concurrent
  public func verify(type: GoTrueOTPType, email rawEmail: String, token code: String)
    async throws(GoTrueFailure) -> GoTrueSession
  {
    let email = EmailRules.normalized(rawEmail)
    let kinds: [OutboxMessage.Kind] =
      switch type {
      case .signup: [.confirmation]
      case .recovery: [.recovery]
      case .email: [.confirmation, .recovery]
      }
    return try answer(spending: \.verify, for: email) { database, now in
      guard let user = try database.user(email: email), CodeRules.isWellFormed(code)
      else { throw Self.invalidCode }
      for kind in kinds {
        guard
          let token = try database.first(
            """
            SELECT id, expires_at, used_at FROM one_time_tokens
            WHERE user_id = ? AND kind = ? AND token_hash = ? ORDER BY id DESC LIMIT 1
            """, .text(user.id), .text(kind.rawValue),
            .blob(codeHash(kind, userID: user.id, code: code)),
            row: { (id: $0.int(0), expiresAt: $0.int(1), usedAt: $0.optionalInt(2)) })
        else { continue }
        if token.usedAt != nil {
          throw GoTrueAPIError(
            status: 403, code: .otpAlreadyUsed, message: "Token has already been used")
        }
        if token.expiresAt <= now {
          throw GoTrueAPIError(
            status: 403, code: .otpExpired, message: "Token has expired or is invalid")
        }
        try database.run(
          "UPDATE one_time_tokens SET used_at = ? WHERE id = ?", .integer(now), .integer(token.id))
        // Both a confirmation and a recovery prove the address belongs to the user.
        try database.run(
          """
          UPDATE users SET email_confirmed_at = coalesce(email_confirmed_at, ?),
            last_sign_in_at = ?, updated_at = ? WHERE id = ?
          """, .integer(now), .integer(now), .integer(now), .text(user.id))
        guard let signedIn = try database.user(id: user.id) else { throw Self.invalidCode }
        return try createSession(for: signedIn, in: database, now: now)
      }
      throw Self.invalidCode
    }
  }

  private static let invalidCode = GoTrueAPIError(
    status: 403, code: .otpInvalid, message: "Token has expired or is invalid")
}
