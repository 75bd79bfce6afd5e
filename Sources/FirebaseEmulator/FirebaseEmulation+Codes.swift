import AccountStore
import AuthCrypto
import GoTrueEngine
import IdentityToolkit

/// Out-of-band codes: the opaque 54-character codes of Firebase's emailed links.
///
/// A code is a row of `oob_codes`, found by a keyed hash of the code (the plaintext is never
/// stored); it works once, and expires with the engine's code lifetime where the emulator's
/// never do. Several codes for one address may wait at once, as in the emulator. The plaintext
/// is kept only in this process, for the emulator's `oobCodes` listing. No GoTrue limit
/// applies: the emulator has no hourly email budget and no wait between two emails.
extension FirebaseEmulation {
  /// What a code is for and whom it concerns, as the store keeps it.
  struct CodeRecord: Sendable {
    /// The row's id (`0` before it is stored).
    var id: Int64 = 0
    /// What the code does.
    var type: FirebaseCodeType
    /// The address it concerns: the account's email, the address to sign in or to restore.
    var email: String
    /// The address a `VERIFY_AND_CHANGE_EMAIL` code moves the account to.
    var newEmail: String? = nil
    /// The account, when the code is for one (an email sign-in code is for an address).
    var userID: String? = nil
    /// Where the link leads once used.
    var continueURL: String? = nil
  }

  /// A code made inside a write: listed, and mailed unless an admin asked for the link, once
  /// the write commits (``publish(_:)``).
  struct IssuedCode: Sendable {
    /// The code as the emulator lists it.
    var listed: FirebaseOutOfBandCode
    /// Its email, when it is mailed.
    var mail: PendingEmail?
  }

  /// Stores a new code for `record`; call inside a write transaction and hand the answer to
  /// ``publish(_:)`` once it commits. `changedTo` is the address an email change took, which
  /// a `RECOVER_EMAIL` email names.
  func issue(
    _ record: CodeRecord, mailed: Bool, changedTo: String? = nil, _ database: EngineAccounts,
    now: Int64
  ) throws -> IssuedCode {
    let code = engine.random.token(byteCount: 40)
    let lifetime = Int64(engine.configuration.codeLifetime * 1_000)
    // Codes that expired a lifetime ago answer no differently from codes never made.
    try database.insertOutOfBandCode(
      NewOutOfBandCode(
        codeHash: codeHash(code), requestType: record.type.rawValue, email: record.email,
        newEmail: record.newEmail, userID: record.userID, continueURL: record.continueURL,
        createdAt: now, expiresAt: now + lifetime),
      forgettingExpiredBefore: now - lifetime)
    let listed = FirebaseOutOfBandCode(
      email: record.email, newEmail: record.newEmail, type: record.type, code: code,
      link: link(record, code: code))
    return IssuedCode(
      listed: listed, mail: mailed ? mail(for: listed, changedTo: changedTo) : nil)
  }

  /// Lists the codes `issued` made and mails theirs; call once their write has committed.
  func publish(_ issued: [IssuedCode]) {
    let date = engine.clock.now
    engine.deliver(issued.compactMap(\.mail), at: date)
    state.codes.withLock { codes in
      codes += issued.map(\.listed)
      codes.removeFirst(max(0, codes.count - FirebaseEmulationState.capacity))
    }
  }

  /// The link that carries `code` of `record`, as the emulator forms it.
  func link(_ record: CodeRecord, code: String) -> String {
    EmulatorActionLink.url(
      base: linkBase, mode: record.type.mode, oobCode: code, continueURL: record.continueURL)
  }

  /// The waiting code `code`: `INVALID_OOB_CODE` when no such code waits (never made, used,
  /// or its account deleted), `EXPIRED_OOB_CODE` past its lifetime.
  func storedCode(_ code: String, _ database: EngineAccounts, now: Int64) throws -> CodeRecord {
    guard !code.isEmpty, let stored = try database.outOfBandCode(hash: codeHash(code)),
      stored.usedAt == nil, let type = FirebaseCodeType(rawValue: stored.requestType)
    else { throw IdentityToolkitError.badRequest(.invalidOOBCode) }
    if stored.expiresAt <= now { throw IdentityToolkitError.badRequest(.expiredOOBCode) }
    return CodeRecord(
      id: stored.id, type: type, email: stored.email, newEmail: stored.newEmail,
      userID: stored.userID, continueURL: stored.continueURL)
  }

  /// Marks `record`'s code used.
  func spend(_ record: CodeRecord, _ database: EngineAccounts, now: Int64) throws {
    try database.markOutOfBandCodeUsed(record.id, at: now)
  }

  /// The codes made in this process that can still be used, oldest first (the emulator's
  /// `oobCodes`); used and expired ones leave the list, as do those of deleted accounts.
  package func codes() throws(IdentityToolkitError) -> [FirebaseOutOfBandCode] {
    let listed = state.codes.withLock { $0 }
    let dead = try read { database, now in
      try Set(
        listed.filter { entry in
          let stored = try database.outOfBandCode(hash: codeHash(entry.code))
          return stored == nil || stored?.usedAt != nil
            || stored.map { $0.expiresAt <= now } == true
        }.map(\.code))
    }
    state.codes.withLock { codes in codes.removeAll { dead.contains($0.code) } }
    return listed.filter { !dead.contains($0.code) }
  }

  /// The keyed hash a code is found by, apart from every hash of GoTrue's codes.
  func codeHash(_ code: String) -> [UInt8] {
    HMAC.sha256(key: engine.secrets.codes, message: Array("oob:\(code)".utf8))
  }
}
