import AccountStore
import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Phone sign-in as the emulator does it (`operations.ts`, `sendVerificationCode` and
/// `signInWithPhoneNumber`): a six-digit code texted (``text(_:)``) for a session, then the
/// session and code sign the number in, making its account if none has it, or link it to the
/// user of an ID token. Better than the emulator: a code is kept hashed, works once, and
/// expires with the engine's code lifetime (`SESSION_EXPIRED`); a temporary proof works once.
extension FirebaseEmulation {
  /// How long a temporary proof works, in seconds (the emulator's `temporaryProofExpiresIn`).
  static let temporaryProofLife: Int64 = 3_600

  /// `accounts:sendVerificationCode`: a code texted to `phoneNumber`, and its session.
  /// `INVALID_PHONE_NUMBER : Invalid format.` for a number missing or not E.164 (production's
  /// answer for a missing one too); `UNSUPPORTED_FIRST_FACTOR` when its account has a second
  /// factor. The app's reCAPTCHA token is not read, as in the emulator.
  package func sendVerificationCode(phoneNumber: String?) throws(IdentityToolkitError) -> String {
    let digits = try FirebasePhoneNumber.stored(phoneNumber ?? "")
    try read { database, _ in
      if let user = try holder(ofPhone: digits, database) {
        try checkPhoneFirstFactor(user, database)
      }
    }
    let sessionInfo = engine.secretRandom.token(byteCount: 169)
    let drawn = engine.random.digits(6)
    let code = testCode(for: digits) ?? drawn
    let now = engine.nowMillis
    let waiting = FirebasePhoneCodes.Waiting(
      phone: digits, codeHash: phoneCodeHash(code, sessionInfo: sessionInfo), createdAt: now,
      expiresAt: now + Int64(engine.configuration.codeLifetime * 1_000))
    let session = sessionHash(sessionInfo)
    state.phoneCodes.withLock { $0.keep(waiting, for: session, now: now) }
    text(
      FirebaseTextedCode(
        phoneNumber: FirebasePhoneNumber.shown(digits), sessionInfo: sessionInfo, code: code))
    return sessionInfo
  }

  /// `accounts:signInWithPhoneNumber`, checked in the emulator's order: with a
  /// `temporaryProof`, `MISSING_PHONE_NUMBER` and `INVALID_TEMPORARY_PROOF`; else
  /// `MISSING_SESSION_INFO`, `MISSING_CODE`, `INVALID_SESSION_INFO` (no such code waits),
  /// `SESSION_EXPIRED`, `INVALID_CODE` (the code waits on); then the ID token's errors. A
  /// number another account has than the ID token's is `PHONE_NUMBER_EXISTS` with a proof,
  /// and with a code a proof of it (no tokens). Otherwise the user of the ID token, or of the
  /// number, or a new one (`ADMIN_ONLY_OPERATION` when the server takes no new users) signs
  /// in with the number: `USER_DISABLED`, `UNSUPPORTED_FIRST_FACTOR` for one with a second
  /// factor.
  @concurrent
  package func signIn(phone request: IdentityToolkitRequest.SignInWithPhoneNumber)
    async throws(IdentityToolkitError) -> FirebasePhoneSignIn
  {
    let digits: String
    var spentProof: (hash: [UInt8], proof: FirebasePhoneCodes.Proof)?
    if let proof = request.temporaryProof.nonEmpty {
      guard let number = request.phoneNumber.nonEmpty else {
        throw .badRequest(.missingPhoneNumber)
      }
      let hash = proofHash(proof)
      let now = engine.nowMillis
      let kept = state.phoneCodes.withLock { codes -> FirebasePhoneCodes.Proof? in
        guard let kept = codes.proofs[hash], kept.expiresAt > now,
          kept.phone == FirebasePhoneNumber.digits(number)
        else { return nil }
        codes.proofs[hash] = nil
        return kept
      }
      guard let kept else { throw .badRequest(.invalidTemporaryProof) }
      (digits, spentProof) = (kept.phone, (hash, kept))
    } else {
      guard let sessionInfo = request.sessionInfo.nonEmpty else {
        throw .badRequest(.missingSessionInfo)
      }
      guard let code = request.code.nonEmpty else { throw .badRequest(.missingCode) }
      digits = try spendCode(code, sessionInfo: sessionInfo)
    }
    do {
      return try signIn(phone: digits, idToken: request.idToken.nonEmpty, proved: spentProof != nil)
    } catch {
      // A proof is spent only by a sign-in it made.
      if let spentProof {
        state.phoneCodes.withLock { $0.proofs[spentProof.hash] = spentProof.proof }
      }
      throw error
    }
  }

  /// The number the code `code` of `sessionInfo` was texted to; the code is spent.
  private func spendCode(_ code: String, sessionInfo: String) throws(IdentityToolkitError)
    -> String
  {
    let session = sessionHash(sessionInfo)
    let given = phoneCodeHash(code, sessionInfo: sessionInfo)
    let now = engine.nowMillis
    let outcome = state.phoneCodes.withLock {
      codes -> Result<String, IdentityToolkitError> in
      guard let waiting = codes.waiting[session] else {
        return .failure(.badRequest(.invalidSessionInfo))
      }
      guard waiting.expiresAt > now else {
        codes.waiting[session] = nil
        return .failure(.badRequest(.sessionExpired))
      }
      guard constantTimeEquals(waiting.codeHash, given) else {
        return .failure(.badRequest(.invalidCode))
      }
      codes.waiting[session] = nil
      return .success(waiting.phone)
    }
    return try outcome.get()
  }

  /// Signs in (or links) the verified number `digits`; `proved` when a temporary proof
  /// verified it.
  private func signIn(phone digits: String, idToken: String?, proved: Bool)
    throws(IdentityToolkitError) -> FirebasePhoneSignIn
  {
    let shown = FirebasePhoneNumber.shown(digits)
    let outcome = try write { database, now -> FirebasePhoneSignIn in
      let owner = try holder(ofPhone: digits, database)
      let tokenUser = try idToken.map { try verifiedUser(idToken: $0, database, now: now).user }
      if let owner, let tokenUser, owner.id != tokenUser.id {
        if proved { throw IdentityToolkitError.badRequest(.phoneNumberExists) }
        return .proofOnly(phoneNumber: shown, temporaryProof: "", expiresIn: 0)
      }
      guard let user = tokenUser ?? owner else {
        if engine.configuration.disableSignup {
          throw IdentityToolkitError.badRequest(.adminOnlyOperation)
        }
        let made = try engine.insertUserWithoutAddress(anonymous: false, database, now: now)
        try setPhone(digits, of: made, database, now: now)
        let session = try startSession(
          for: try existingUser(made.id, database), .phone, database, now: now)
        return .signedIn(session, phoneNumber: shown, isNewUser: true)
      }
      if user.isBanned(at: now) { throw IdentityToolkitError.badRequest(.userDisabled) }
      try checkPhoneFirstFactor(user, database)
      try setPhone(digits, of: user, database, now: now)
      try database.updateUser(user.id, [.lastSignInAt(now), .updatedAt(now)])
      let session = try startSession(
        for: try existingUser(user.id, database), .phone, database, now: now)
      return .signedIn(session, phoneNumber: shown, isNewUser: false)
    }
    guard case .proofOnly = outcome else { return outcome }
    // The code was right, but the number is another account's: a proof of it lets the app
    // try again without a new code, as the emulator answers.
    let proof = engine.secretRandom.token(byteCount: 89)
    let now = engine.nowMillis
    let kept = FirebasePhoneCodes.Proof(
      phone: digits, expiresAt: now + Self.temporaryProofLife * 1_000)
    let hash = proofHash(proof)
    state.phoneCodes.withLock { $0.keep(kept, as: hash, now: now) }
    return .proofOnly(
      phoneNumber: shown, temporaryProof: proof, expiresIn: Self.temporaryProofLife)
  }

  /// `UNSUPPORTED_FIRST_FACTOR` for a user with a verified second factor: a number is no
  /// first factor of theirs.
  private func checkPhoneFirstFactor(_ user: UserRecord, _ database: EngineAccounts) throws {
    if try database.factors(ofUser: user.id).contains(where: \.isVerified) {
      throw IdentityToolkitError.badRequest(
        .unsupportedFirstFactor,
        "A phone number cannot be set as a first factor on an SMS based MFA user.")
    }
  }

  /// The fixed code `--test-otp` gives the number, if any.
  private func testCode(for digits: String) -> String? {
    let codes = engine.configuration.testCodes
    return codes[digits] ?? codes[FirebasePhoneNumber.shown(digits)]
  }
}

/// What `signInWithPhoneNumber` did.
package enum FirebasePhoneSignIn: Equatable, Sendable {
  /// The number signed in (or was linked): the session, the number, and whether the account
  /// is new.
  case signedIn(FirebaseSession, phoneNumber: String, isNewUser: Bool)
  /// The number is another account's than the ID token's: a proof of it, good for
  /// `expiresIn` seconds.
  case proofOnly(phoneNumber: String, temporaryProof: String, expiresIn: Int64)
}
