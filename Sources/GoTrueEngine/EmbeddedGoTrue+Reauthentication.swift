import AccountStore
import GoTrue

/// Reauthentication, as GoTrue does it (`internal/api/reauthenticate.go`): a signed-in user
/// asks for a nonce by email, and a password change that needs one presents it.
extension EmbeddedGoTrue {
  /// How long a session counts as recent enough to change the password without a nonce.
  static let recentSession: Int64 = 24 * 3_600 * 1_000

  /// `GET /reauthenticate`: emails a 6-digit nonce to the signed-in user's confirmed address.
  @concurrent
  public func reauthenticate(accessToken: String) async throws(GoTrueFailure) {
    let date = clock.now
    let emails = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> [PendingEmail] in
      let user = try authorize(accessToken, database, now: now).user
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
      return [try issueCode(.reauthentication, for: user, database, now: now)]
    }
    try await send(emails, at: date)
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
