import AccountStore
import AuthCrypto
import GoTrue

/// `POST /factors/{id}/verify` (GoTrue's `verifyTOTPFactor` and `updateMFASessionAndClaims`),
/// and the sealing of TOTP secrets at rest.
extension EmbeddedGoTrue {
  /// Checks `code` against the factor for challenge `challengeID` (canonical UUID text, or
  /// empty for none) made from `clientIP`. Right, it answers the same session raised to aal2:
  /// `totp` among its methods, a new refresh token (the old one cannot mint an aal2 session),
  /// the factor verified; the user's other sessions below aal2 and other unverified TOTP
  /// factors are removed. Beyond GoTrue, a code is accepted once (RFC 6238 §5.2): its time
  /// step, or an earlier one, again is answered as a wrong code; each code checked spends one
  /// of the account's checks (``spendCodeCheck(ofUser:_:now:)``), whoever sends it; and a
  /// challenge that took ``wrongCodesPerChallenge`` wrong codes is spent, answered as expired.
  @concurrent
  package func verifyFactor(
    accessToken: String, factorID: String, challengeID: String, code: String, clientIP: String
  ) async throws(GoTrueFailure) -> GoTrueSession {
    let lifetime = Int64(configuration.mfa.challengeExpiry * 1_000)
    try checkCancellation()
    let outcome = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> Result<Rotation, GoTrueAPIError> in
      let (claims, user) = try authorizeFactorUser(accessToken, database, now: now)
      let factor = try ownedFactor(factorID, of: user, database)
      if code.isEmpty {
        throw GoTrueAPIError(
          status: 400, code: .validationFailed, message: "Code needs to be non-empty")
      }
      guard configuration.mfa.totpVerifyEnabled else { throw MFAError.verifyDisabled }
      guard
        let challenge = try database.challenge(id: challengeID, ofFactor: factor.id)
      else {
        throw GoTrueAPIError(
          status: 422, code: .mfaFactorNotFound,
          message: "MFA factor with the provided challenge ID not found")
      }
      if challenge.verifiedAt != nil || challenge.ipAddress != clientIP {
        throw GoTrueAPIError(
          status: 422, code: .mfaIPAddressMismatch,
          message: "Challenge and verify IP addresses mismatch.")
      }
      if now > challenge.createdAt + lifetime
        || challenge.failedAttempts >= Self.wrongCodesPerChallenge
      {
        // The expired (or spent) challenge goes whatever the answer, as in GoTrue.
        try database.deleteChallenge(challengeID)
        return .failure(MFAError.challengeExpired(challengeID))
      }
      try spendCodeCheck(ofUser: user.id, database, now: now)
      // NB: a future MFA verification hook (GoTrue's `MFAVerificationAttempt`) would be
      // consulted here, with the outcome.
      guard try acceptTOTP(code, for: factor, database, now: now) != nil else {
        try database.countWrongCode(challenge: challengeID)
        return .failure(MFAError.wrongCode)
      }
      guard let sessionID = claims.sessionID else {
        throw MFAError.internalError("Cannot read SessionId claim as UUID")
      }
      try database.markVerified(challenge: challengeID, at: now)
      if !factor.isVerified { try database.updateFactor(factor.id, [.verified, .updatedAt(now)]) }
      // GoTrue reads the user it answers with here, before the other unverified factors go.
      let answered = try database.existingUser(id: user.id)
      let (session, refreshToken) = try raiseToAAL2(
        sessionID, by: factor.id, database, now: now)
      try database.deleteSessionsBelowAAL2(ofUser: user.id)
      try database.deleteUnverifiedFactors(ofUser: user.id)
      return .success((answered, session, refreshToken, now))
    }
    switch outcome {
    case .failure(let refusal): throw .api(refusal)
    case .success(let raised):
      return try await withHookClaims(
        makeSession(
          user: raised.user, session: raised.session, refreshToken: raised.refreshToken,
          now: raised.now), method: "totp", isNew: false)
    }
  }

  /// Raises session `sessionID` to aal2 by factor `factorID` (GoTrue's
  /// `updateMFASessionAndClaims`): records `totp`, revokes the session's refresh tokens (GoTrue
  /// moves its counter two on, so no earlier token mints an aal2 session) and issues a new one.
  package func raiseToAAL2(
    _ sessionID: String, by factorID: String, _ database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) -> (SessionInfo, refreshToken: String) {
    try recordProof(of: "totp", inSession: sessionID, database, now: now)
    try database.raiseToAAL2(session: sessionID, by: factorID)
    try database.revokeRefreshTokens(ofSession: sessionID, at: now)
    let refreshToken = try issueRefreshToken(sessionID: sessionID, parent: nil, database, now)
    guard let session = try sessionInfo(sessionID, database) else {
      throw GoTrueAPIError(
        store: AccountStoreError(.failed, "the session \(sessionID) is missing from the store"))
    }
    return (session, refreshToken)
  }

  // MARK: Secrets at rest

  /// The key TOTP secrets are sealed under: derived from the store's own key with a label of
  /// its own, so it is no other key of the store's.
  private var totpSecretKey: [UInt8] {
    HMAC.sha256(key: secrets.codes, message: Array("authflow mfa totp secret".utf8))
  }

  /// `secret` sealed (AES-256-GCM) for factor `factorID`: the box opens only for that factor.
  func sealTOTPSecret(_ secret: [UInt8], factorID: String) throws(GoTrueAPIError) -> [UInt8] {
    do {
      return try Sealing.seal(
        secret, key: totpSecretKey, context: Array(factorID.utf8), random: random)
    } catch {
      throw MFAError.internalError("Error sealing MFA TOTP secret")
    }
  }

  /// The secret of `factor`; GoTrue's 500 when its box does not open.
  func openTOTPSecret(of factor: FactorRecord) throws(GoTrueAPIError) -> [UInt8] {
    do {
      return try Sealing.open(
        factor.sealedSecret, key: totpSecretKey, context: Array(factor.id.utf8))
    } catch {
      throw MFAError.internalError("Database error verifying MFA TOTP secret")
    }
  }
}
