import AccountStore
import AuthCrypto
import GoTrue

/// The rules of a second factor that hold on every surface of the engine: what a session that
/// has not proved the factor may not do, and what checking a TOTP code costs the account.
extension EmbeddedGoTrue {
  /// How many wrong codes one challenge (GoTrue's `mfa_challenges` row, or the Firebase
  /// surface's pending sign-in) takes before it is spent and a new one must be asked for.
  package static let wrongCodesPerChallenge = 5

  /// Whether `user` has a verified factor that session `sessionID` has not proved (an `aal1`
  /// session, or none at all): GoTrue's rule for changing the email or password
  /// (`api/user.go`), which the engine holds for deleting the account too, on both surfaces.
  package func lacksSecondFactor(
    _ user: UserRecord, session sessionID: String?, _ database: EngineAccounts
  ) throws(GoTrueAPIError) -> Bool {
    guard user.factors.contains(where: \.isVerified) else { return false }
    let aal = try sessionID.flatMap { id throws(GoTrueAPIError) in try database.session(id: id)?.aal
    }
    return aal != "aal2"
  }

  /// Whether session `sessionID` began within ``recentSession``: with
  /// ``EngineConfiguration/passwordChangeNeedsReauthentication`` (`--secure-password-change`),
  /// only such a session changes a password without proving the user again.
  package func isRecent(session sessionID: String?, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError)
    -> Bool
  {
    guard let sessionID,
      let started = try database.session(id: sessionID)?.createdAt
    else { return false }
    return now <= started + Self.recentSession
  }

  /// Spends one check of user `userID`'s codes from the account's budget
  /// (``EngineConfiguration/RateLimits/verify``), the one emailed codes and reauthentication
  /// nonces draw from, whoever asks; throws GoTrue's 429 when it is empty. A TOTP code is six
  /// digits like the others, so guessing it costs the same. Call inside the write transaction,
  /// and answer a wrong code as a value, not a throw, so the spent check is kept.
  package func spendCodeCheck(ofUser userID: String, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError)
  {
    let limits = limiter(database, now)
    try limits.consume(
      limits.bucket("verify", for: userID), budget: configuration.rateLimits.verify)
  }

  /// Checks `code` against `factor` at `now`: the time step it matched, recorded as used, or
  /// `nil` for a wrong code, one not of the moment, or one whose step (or a later one) was used
  /// already (RFC 6238 §5.2).
  package func acceptTOTP(
    _ code: String, for factor: FactorRecord, _ database: EngineAccounts, now: Int64
  )
    throws(GoTrueAPIError) -> Int64?
  {
    let totp = TOTP(secret: try openTOTPSecret(of: factor))
    guard let step = totp.matchingStep(of: code, at: now / 1_000, after: factor.lastUsedStep)
    else { return nil }
    try database.updateFactor(factor.id, [.lastUsedStep(step)])
    return step
  }
}
