import AccountStore
import GoTrue

/// Reauthentication, as GoTrue does it (`internal/api/reauthenticate.go`): a signed-in user
/// asks for a nonce by email (or by SMS, for a user with a phone and no email), and a password
/// change that needs one presents it.
extension EmbeddedGoTrue {
  /// How long a session counts as recent enough to change the password without a nonce.
  static let recentSession: Int64 = 24 * 3_600 * 1_000

  /// `GET /reauthenticate`: emails a 6-digit nonce to the signed-in user's confirmed address.
  @concurrent
  public func reauthenticate(accessToken: String) async throws(GoTrueFailure) {
    _ = try await sendNonce(accessToken: accessToken)
  }

  /// `GET /reauthenticate`: the nonce by email to the signed-in user's confirmed address, or,
  /// with the phone provider on, by SMS to the confirmed number of a user with no email.
  /// Answers GoTrue's `message_id` for a text message.
  @concurrent
  package func sendNonce(accessToken: String) async throws(GoTrueFailure) -> String? {
    let date = clock.now
    let (emails, texts) = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> ([PendingEmail], [PendingSMS]) in
      let user = try authorize(accessToken, database, now: now).user
      if user.email.isEmpty, let phone = user.phone, configuration.phoneProvider {
        guard user.isPhoneConfirmed else {
          throw GoTrueAPIError(
            status: 422, code: .phoneNotConfirmed, message: "Please verify your phone first.")
        }
        try audit(database, .user(user), .userReauthenticateRequested, now: now)
        return ([], [try textCode(.reauthentication, for: user, to: phone, database, now: now)])
      }
      guard !user.email.isEmpty else {
        throw GoTrueAPIError(
          status: 400, code: .validationFailed,
          message: "Reauthentication requires the user to have an email or a phone number")
      }
      guard user.isConfirmed else {
        throw GoTrueAPIError(
          status: 422, code: .emailNotConfirmed, message: "Please verify your email first.")
      }
      try limiter(database, now).checkEmailInterval(lastSent: user.reauthenticationSentAt)
      try audit(database, .user(user), .userReauthenticateRequested, now: now)
      return ([try issueCode(.reauthentication, for: user, database, now: now)], [])
    }
    let messageID = deliver(texts, at: date)
    try await send(emails, at: date)
    return messageID
  }

  /// Checks the nonce a password change came with, when one is needed: with
  /// ``EngineConfiguration/passwordChangeNeedsReauthentication``, for a request with no
  /// session or one begun over a day ago. A good nonce is spent, with every other pending code
  /// of the user (GoTrue's `ConfirmReauthentication`). Call inside a write transaction.
  func checkReauthentication(
    nonce: String?, of user: UserRecord, session: String?, _ database: EngineAccounts,
    now: Int64
  ) throws(GoTrueAPIError) {
    guard configuration.passwordChangeNeedsReauthentication,
      try !isRecent(session: session, database, now: now)
    else { return }
    guard let nonce, !nonce.isEmpty else {
      throw GoTrueAPIError(
        status: 400, code: .reauthenticationNeeded,
        message: "Password update requires reauthentication")
    }
    let code = try database.code(
      ofUser: user.id, kind: .reauthentication,
      codeHash: codeHash(.reauthentication, userID: user.id, code: nonce))
    guard let code, code.usedAt == nil, code.expiresAt > now, user.reauthenticationSentAt != nil
    else {
      throw GoTrueAPIError(
        status: 422, code: .reauthenticationNotValid, message: "Nonce has expired or is invalid")
    }
    try database.deleteUnusedCodes(ofUser: user.id)
  }
}
