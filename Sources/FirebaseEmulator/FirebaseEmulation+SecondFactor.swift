import AccountStore
import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A user's second factor on the Firebase surface, as Identity Platform's TOTP MFA has it: a
/// sign-in with a first factor waits for the code (`mfaPendingCredential`), which
/// `accounts/mfaSignIn:finalize` takes; and a session that has not proved the factor changes
/// no credential. The factors are the engine's, enrolled through GoTrue's `/factors`: one
/// account, one rule on both surfaces.
extension FirebaseEmulation {
  /// Ends a sign-in with a first factor (`method`): a session, or for a user with a verified
  /// TOTP factor (and TOTP verification on) the second step it waits for, as Identity Platform
  /// answers such a sign-in. Call inside the sign-in's write transaction.
  func finishSignIn(
    _ user: UserRecord, _ method: FirebaseSignInMethod, _ database: EngineAccounts, now: Int64
  ) throws -> FirebaseSignInOutcome {
    let factors = try database.factors(ofUser: user.id).filter(\.isVerified)
    guard !factors.isEmpty, engine.configuration.mfa.totpVerifyEnabled else {
      try database.updateUser(user.id, [.lastSignInAt(now)])
      return .signedIn(
        try startSession(for: try existingUser(user.id, database), method, database, now: now))
    }
    let credential = engine.secretRandom.token(byteCount: 32)
    try database.insertPendingSignIn(
      credentialHash: SHA256.hash(credential), userID: user.id, provider: method.provider,
      now: now, forgettingBefore: now - pendingLifetime)
    return .secondFactorPending(
      FirebaseSecondFactorPending(
        account: try account(user, database, now: now), credential: credential,
        factors: factors.map(FirebaseSecondFactor.init)))
  }

  /// How long a sign-in waits for its second factor: GoTrue's `MFA_CHALLENGE_EXPIRY_DURATION`.
  private var pendingLifetime: Int64 { Int64(engine.configuration.mfa.challengeExpiry * 1_000) }

  /// `accounts/mfaSignIn:finalize` with a TOTP code: the session of the sign-in `credential`
  /// waits for, once `code` is the factor `enrollmentID`'s. Checked in Identity Platform's
  /// order: `MISSING_CREDENTIAL`, `MISSING_MFA_ENROLLMENT_ID`, `MISSING_CODE`;
  /// `INVALID_MFA_PENDING_CREDENTIAL` for a credential unknown, expired, spent, or from before
  /// the account's tokens were revoked; `USER_DISABLED`, `MFA_ENROLLMENT_NOT_FOUND`; then each
  /// code checked spends one of the account's checks (`TOO_MANY_ATTEMPTS_TRY_LATER` when none
  /// is left, as a TOTP code on GoTrue's surface does) and a wrong one is `INVALID_CODE`; after
  /// ``EmbeddedGoTrue/wrongCodesPerChallenge`` of them the credential is spent.
  @concurrent
  package func finishSecondFactor(credential: String?, enrollmentID: String?, code: String?)
    async throws(IdentityToolkitError) -> FirebaseSession
  {
    guard let credential, !credential.isEmpty else {
      throw .badRequest("MISSING_CREDENTIAL", "Please set MFA Pending Credential.")
    }
    guard let enrollmentID, !enrollmentID.isEmpty else {
      throw .badRequest("MISSING_MFA_ENROLLMENT_ID", "No second factor identifier is provided.")
    }
    guard let code, !code.isEmpty else { throw .badRequest("MISSING_CODE") }
    let lifetime = pendingLifetime
    return try write { database, now -> Result<FirebaseSession, IdentityToolkitError> in
      let key = SHA256.hash(credential)
      let invalid = IdentityToolkitError.badRequest("INVALID_MFA_PENDING_CREDENTIAL")
      guard
        let pending = try database.pendingSignIn(credentialHash: key)
      else { throw invalid }
      let user = try existingUser(pending.userID, database)
      if now > pending.createdAt + lifetime
        || pending.failedAttempts >= EmbeddedGoTrue.wrongCodesPerChallenge
        || (user.validSince.map { $0 > pending.createdAt } ?? false)
      {
        try database.deletePendingSignIn(credentialHash: key)
        return .failure(invalid)
      }
      if user.isBanned(at: now) { throw IdentityToolkitError.badRequest(.userDisabled) }
      guard let factor = try database.factor(id: enrollmentID, ofUser: user.id), factor.isVerified
      else { throw IdentityToolkitError.badRequest("MFA_ENROLLMENT_NOT_FOUND") }
      try engine.spendCodeCheck(ofUser: user.id, database, now: now)
      guard try engine.acceptTOTP(code, for: factor, database, now: now) != nil else {
        try database.countWrongCode(pendingSignIn: key)
        return .failure(.badRequest("INVALID_CODE"))
      }
      try database.deletePendingSignIn(credentialHash: key)
      try database.updateUser(user.id, [.lastSignInAt(now)])
      let method = FirebaseSignInMethod(provider: pending.provider, secondFactor: factor.id)
      return .success(
        try startSession(for: try existingUser(user.id, database), method, database, now: now))
    }.get()
  }

  /// GoTrue's rule for `user`'s credentials, held for a change the ID token with `claims`
  /// asks: a new email or password, removing either, linking another, deleting the account.
  /// A user with a verified second factor makes it only from a session that proved the factor
  /// (GoTrue answers `insufficient_aal`; Firebase's answer for a session too weak for a
  /// sensitive change is `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, on which the SDKs ask the user to
  /// sign in again, second factor and all). With `--secure-password-change`, a new password
  /// (`changesPassword`) needs a session begun within a day, as GoTrue asks a nonce of an older
  /// one (Firebase has no nonce to send). Call inside the change's transaction.
  func checkCredentialChange(
    of user: UserRecord, claims: [String: JSONValue], changesPassword: Bool,
    _ database: EngineAccounts, now: Int64
  ) throws {
    let session = claims["session_id"]?.stringValue
    let tooWeak = IdentityToolkitError.badRequest(.credentialTooOld)
    if try engine.lacksSecondFactor(user, session: session, database) { throw tooWeak }
    if changesPassword, engine.configuration.passwordChangeNeedsReauthentication,
      try !engine.isRecent(session: session, database, now: now)
    {
      throw tooWeak
    }
  }
}

/// What a sign-in with a first factor gives.
package enum FirebaseSignInOutcome: Equatable, Sendable {
  /// The user is signed in.
  case signedIn(FirebaseSession)
  /// The user has a verified second factor, and the sign-in waits for its code.
  case secondFactorPending(FirebaseSecondFactorPending)

  /// The session, when the user is signed in.
  package var session: FirebaseSession? {
    guard case .signedIn(let session) = self else { return nil }
    return session
  }
}

/// A sign-in waiting for its second factor (`mfaPendingCredential` and `mfaInfo`).
package struct FirebaseSecondFactorPending: Equatable, Sendable {
  /// The account signing in.
  package var account: FirebaseAccount
  /// What `accounts/mfaSignIn:finalize` takes back: opaque, single use, stored only as a hash.
  package var credential: String
  /// The user's verified factors, any of which may finish the sign-in.
  package var factors: [FirebaseSecondFactor]
}

/// A verified TOTP factor as Identity Platform lists it (`mfaInfo`).
package struct FirebaseSecondFactor: Equatable, Sendable {
  /// The factor's id (`mfaEnrollmentId`): GoTrue's factor id.
  package var enrollmentID: String
  /// Its friendly name, when it has one (`displayName`).
  package var displayName: String?
  /// When it was enrolled, in Unix milliseconds (`enrolledAt`).
  package var enrolledAt: Int64

  init(_ factor: FactorRecord) {
    enrollmentID = factor.id
    displayName = factor.friendlyName.isEmpty ? nil : factor.friendlyName
    enrolledAt = factor.createdAt
  }

  init(_ factor: GoTrueFactor) {
    enrollmentID = factor.id
    displayName = factor.friendlyName.flatMap { $0.isEmpty ? nil : $0 }
    enrolledAt = factor.createdAt.map { Int64(($0.timeIntervalSince1970 * 1_000).rounded()) } ?? 0
  }
}
