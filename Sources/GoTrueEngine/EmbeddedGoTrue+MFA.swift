import AccountStore
import AuthCrypto
import GoTrue
import QRCode

/// TOTP multi-factor authentication as GoTrue serves it (`api/mfa.go`): enrolling a factor,
/// challenging it and removing it (verifying a code is in `EmbeddedGoTrue+MFAVerify.swift`).
/// Each step checks what GoTrue checks, in its order, with its answers.
extension EmbeddedGoTrue {
  /// The checks of GoTrue's `/factors` routes before a body is read: a valid access token
  /// (`requireAuthentication`), not an anonymous user's (`requireNotAnonymous`), and, for a
  /// route of one factor, that the user owns it (`loadFactor`).
  package func checkFactorAccess(accessToken: String, factorID: String? = nil)
    throws(GoTrueFailure)
  {
    let now = nowMillis
    try withDatabase { database throws(GoTrueAPIError) in
      let user = try authorizeFactorUser(accessToken, database, now: now).user
      if let factorID { _ = try ownedFactor(factorID, of: user, database) }
    }
  }

  /// `POST /factors` with `factor_type: totp`: a new unverified factor, its secret shown this
  /// once (as base32, as an `otpauth://` URI, and as that URI's QR code in SVG) and stored only
  /// sealed.
  @concurrent
  package func enrollTOTP(accessToken: String, friendlyName: String, issuer: String)
    async throws(GoTrueFailure) -> GoTrueFactorEnrollment
  {
    let settings = configuration.mfa
    guard settings.totpEnrollEnabled else { throw .api(MFAError.enrollDisabled) }
    let siteHost = OTPAuthURI.host(ofSiteURL: configuration.siteURL)
    guard let issuer = issuer.isEmpty ? siteHost : issuer else {
      throw .api(MFAError.internalError("site url is improperly formatted"))
    }
    try checkCancellation()
    let outcome = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> Result<
        (id: String, secret: String, uri: String), GoTrueAPIError
      > in
      let (claims, user) = try authorizeFactorUser(accessToken, database, now: now)
      let session = try requireSession(
        claims, database,
        "A valid session and a registered user are required to enroll a factor")
      if let refusal = try admitNewFactor(
        named: friendlyName, for: user, aal: session.aal, database, now: now)
      {
        // The expired factors are gone whatever the answer, as in GoTrue.
        return .failure(refusal)
      }
      let factorID = random.uuidString()
      let secret = secretRandom.bytes(20)
      let base32 = Base32.encode(secret)
      let uri = OTPAuthURI.totp(issuer: issuer, account: user.email, secret: base32)
      // pquerna/otp refuses an empty issuer or account; a URI too long for any QR code at
      // level H makes GoTrue's QR step fail.
      guard !issuer.isEmpty, !user.email.isEmpty,
        uri.utf8.count <= QRCode.ErrorCorrection.high.byteCapacity
      else { throw MFAError.internalError("Error generating QR Code") }
      try database.insertFactor(
        id: factorID, userID: user.id, friendlyName: friendlyName,
        sealedSecret: try sealTOTPSecret(secret, factorID: factorID), now: now)
      return .success((factorID, base32, uri))
    }
    switch outcome {
    case .failure(let refusal): throw .api(refusal)
    case .success(let (factorID, secret, uri)):
      // Drawn once the store is free again: the code is tens of thousands of squares.
      guard let code = QRCode(bytes: Array(uri.utf8), correction: .high) else {
        throw .api(MFAError.internalError("Error generating QR Code"))
      }
      return GoTrueFactorEnrollment(
        id: factorID, friendlyName: friendlyName,
        totp: .init(qrCode: code.svg(), secret: secret, uri: uri))
    }
  }

  /// GoTrue's `validateFactors`: removes every user's unverified factors that outlived
  /// `MFA_FACTOR_EXPIRY_DURATION` without a challenge, then refuses a new factor whose name
  /// the user already uses, one past the limits, or one beside a verified factor from an aal1
  /// session.
  private func admitNewFactor(
    named name: String, for user: UserRecord, aal: String, _ database: EngineAccounts,
    now: Int64
  ) throws(GoTrueAPIError) -> GoTrueAPIError? {
    try database.deleteAbandonedFactors(
      olderThan: Int64(configuration.mfa.factorExpiry * 1_000), now: now)
    let factors = try database.factors(ofUser: user.id)
    if factors.contains(where: { $0.friendlyName == name }) {
      return GoTrueAPIError(
        status: 422, code: .mfaFactorNameConflict,
        message:
          "A factor with the friendly name \(GoText.quoted(name)) for this user already exists"
      )
    }
    let verified = factors.filter(\.isVerified).count
    if factors.count >= configuration.mfa.maxEnrolledFactors
      || verified >= configuration.mfa.maxVerifiedFactors
    {
      return GoTrueAPIError(
        status: 422, code: .tooManyEnrolledMFAFactors,
        message: "Maximum number of verified factors reached, unenroll to continue")
    }
    if verified > 0, aal != "aal2" {
      return GoTrueAPIError(
        status: 403, code: .insufficientAAL, message: "AAL2 required to enroll a new factor")
    }
    return nil
  }

  /// `POST /factors/{id}/challenge`: a challenge for the factor, bound to the address it came
  /// from, that a code can answer within `MFA_CHALLENGE_EXPIRY_DURATION`.
  package func challengeFactor(accessToken: String, factorID: String, clientIP: String)
    throws(GoTrueFailure) -> GoTrueFactorChallenge
  {
    let lifetime = Int64(configuration.mfa.challengeExpiry * 1_000)
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try authorizeFactorUser(accessToken, database, now: now).user
      let factor = try ownedFactor(factorID, of: user, database)
      guard configuration.mfa.totpVerifyEnabled else { throw MFAError.verifyDisabled }
      let challengeID = random.uuidString()
      try database.insertChallenge(
        id: challengeID, factorID: factor.id, ipAddress: clientIP, now: now)
      return GoTrueFactorChallenge(id: challengeID, expiresAt: Int((now + lifetime) / 1_000))
    }
  }

  /// `DELETE /factors/{id}`: removes the factor (a verified one only from an aal2 session),
  /// and the sessions it raised drop to aal1.
  package func unenrollFactor(accessToken: String, factorID: String)
    throws(GoTrueFailure) -> GoTrueUnenrolledFactor
  {
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let (claims, user) = try authorizeFactorUser(accessToken, database, now: now)
      let factor = try ownedFactor(factorID, of: user, database)
      let session = try requireSession(
        claims, database, "A valid session and factor are required to unenroll a factor")
      if factor.isVerified, session.aal != "aal2" {
        throw GoTrueAPIError(
          status: 422, code: .insufficientAAL, message: "AAL2 required to unenroll verified factor")
      }
      try database.deleteFactor(factor.id)
      try database.downgradeSessions(raisedBy: factor.id)
      return GoTrueUnenrolledFactor(id: factor.id)
    }
  }

  // MARK: Shared checks

  /// The claims and user of a valid access token of a user who did not sign in anonymously.
  func authorizeFactorUser(_ accessToken: String, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError) -> (claims: AccessClaims, user: UserRecord)
  {
    let (claims, user) = try authorize(accessToken, database, now: now)
    if claims.isAnonymous {
      throw GoTrueAPIError(
        status: 403, code: .noAuthorization,
        message: "Anonymous user not allowed to perform these actions")
    }
    return (claims, user)
  }

  /// Factor `factorID` of `user` (GoTrue's `loadFactor`): 404 when the id is no UUID or names
  /// no factor of theirs.
  func ownedFactor(_ factorID: String, of user: UserRecord, _ database: EngineAccounts)
    throws(GoTrueAPIError)
    -> FactorRecord
  {
    guard case .success(let id) = GoUUID.parse(factorID) else {
      throw GoTrueAPIError(
        status: 404, code: .validationFailed, message: "factor_id must be an UUID")
    }
    guard let factor = try database.factor(id: id, ofUser: user.id) else {
      throw GoTrueAPIError(status: 404, code: .mfaFactorNotFound, message: "Factor not found")
    }
    return factor
  }

  /// The session the token names, with its assurance level; GoTrue's 500 with `message` when
  /// the token names none.
  func requireSession(_ claims: AccessClaims, _ database: EngineAccounts, _ message: String)
    throws(GoTrueAPIError) -> SessionInfo
  {
    guard let sessionID = claims.sessionID, let session = try sessionInfo(sessionID, database)
    else { throw MFAError.internalError(message) }
    return session
  }

  /// Session `id` with its assurance level, if it exists.
  func sessionInfo(_ id: String, _ database: EngineAccounts) throws(GoTrueAPIError) -> SessionInfo?
  {
    guard let session = try database.session(id: id) else { return nil }
    return try withAssurance(SessionInfo(session), database)
  }
}

extension EmbeddedGoTrue {
  /// PUT /user's MFA rule (`api/user.go`): a user with a verified factor changes their
  /// password or email only from an aal2 session; otherwise 401 `insufficient_aal`.
  func requireAAL2(
    toChange password: String?, _ newEmail: String?, _ newPhone: String? = nil,
    of user: UserRecord, _ claims: AccessClaims, _ database: EngineAccounts
  ) throws(GoTrueAPIError) {
    let changes =
      !(password ?? "").isEmpty || (newEmail.map { $0 != user.email } ?? false)
      || (newPhone.map { $0 != user.phone } ?? false)
    guard changes, try lacksSecondFactor(user, session: claims.sessionID, database) else { return }
    throw GoTrueAPIError(
      status: 401, code: .insufficientAAL,
      message: "AAL2 session is required to update email or password when MFA is enabled.")
  }
}

/// GoTrue's MFA answers that more than one step gives (`api/mfa.go`), in its words.
enum MFAError {
  /// `MFA_TOTP_ENROLL_ENABLED` is off.
  static let enrollDisabled = GoTrueAPIError(
    status: 422, code: .mfaTOTPEnrollNotEnabled, message: "MFA enroll is disabled for TOTP")

  /// `MFA_TOTP_VERIFY_ENABLED` is off: no challenges, no verifying.
  static let verifyDisabled = GoTrueAPIError(
    status: 422, code: .mfaTOTPVerifyNotEnabled, message: "MFA verification is disabled for TOTP")

  /// A challenge past `MFA_CHALLENGE_EXPIRY_DURATION`, or (here) spent by wrong codes.
  static func challengeExpired(_ id: String) -> GoTrueAPIError {
    GoTrueAPIError(
      status: 422, code: .mfaChallengeExpired,
      message: "MFA challenge \(id) has expired, verify against another challenge or create a "
        + "new challenge.")
  }

  /// A code that is not the factor's now (or, here, one already used).
  static let wrongCode = GoTrueAPIError(
    status: 422, code: .mfaVerificationFailed, message: "Invalid TOTP code entered")

  /// GoTrue's 500 with its own message (`NewInternalServerError`).
  static func internalError(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 500, code: .unexpectedFailure, message: message)
  }
}
