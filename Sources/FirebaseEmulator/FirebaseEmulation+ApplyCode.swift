import AccountStore
import GoTrueEngine
import IdentityToolkit

/// What a code is for, as `resetPassword` tells it without spending the code.
package struct FirebaseCodeInfo: Equatable, Sendable {
  /// What the code does.
  package var type: FirebaseCodeType
  /// The address it concerns.
  package var email: String
  /// The address a `VERIFY_AND_CHANGE_EMAIL` code moves the account to.
  package var newEmail: String?
  /// The link that carries it.
  package var link: String

  /// An answer with the given parts.
  package init(type: FirebaseCodeType, email: String, newEmail: String?, link: String) {
    self.type = type
    self.email = email
    self.newEmail = newEmail
    self.link = link
  }
}

/// What applying a code through `accounts:update` did.
package struct FirebaseAppliedCode: Equatable, Sendable {
  /// The code's type.
  package var type: FirebaseCodeType
  /// The account as it now stands.
  package var account: FirebaseAccount
  /// The address a `VERIFY_AND_CHANGE_EMAIL` code moved the account to.
  package var newEmail: String?

  /// An answer with the given parts.
  package init(type: FirebaseCodeType, account: FirebaseAccount, newEmail: String?) {
    self.type = type
    self.account = account
    self.newEmail = newEmail
  }
}

/// Spending codes: a password reset, and the codes `accounts:update` applies. As in the
/// emulator, a code is spent before the checks that follow it (the account it names, a taken
/// address), so a code that fails them is used up all the same.
extension FirebaseEmulation {
  /// `resetPassword` with only a code: what it is for, without spending it. `INVALID_OOB_CODE`
  /// for a wrong or used code, `EXPIRED_OOB_CODE` past its lifetime.
  package func inspect(code: String) throws(IdentityToolkitError) -> FirebaseCodeInfo {
    try read { database, now in
      let record = try storedCode(code, database, now: now)
      return FirebaseCodeInfo(
        type: record.type, email: record.email, newEmail: record.newEmail,
        link: link(record, code: code))
    }
  }

  /// `resetPassword` with a new password: spends a `PASSWORD_RESET` code (another type is
  /// `INVALID_OOB_CODE`), then sets the password (`WEAK_PASSWORD` first), verifies the email
  /// (the code proved it) and sets `validSince`, revoking the old tokens.
  @concurrent
  package func resetPassword(code: String, newPassword: String)
    async throws(IdentityToolkitError) -> FirebaseCodeInfo
  {
    let info = try inspect(code: code)
    guard info.type == .passwordReset else { throw .badRequest(.invalidOOBCode) }
    try checkPassword(newPassword)
    let hash = try hash(newPassword)
    return try write { database, now -> Result<FirebaseCodeInfo, IdentityToolkitError> in
      let record = try storedCode(code, database, now: now)
      guard record.type == .passwordReset else {
        throw IdentityToolkitError.badRequest(.invalidOOBCode)
      }
      try spend(record, database, now: now)
      guard let user = try owner(of: record, database) else {
        return .failure(.badRequest(.invalidOOBCode))
      }
      try database.updateUser(
        user.id,
        [
          .passwordHash(hash), .passwordUpdatedAt(now), .validSince(now / 1_000 * 1_000),
          .updatedAt(now),
        ])
      try setEmailVerified(true, of: user.id, database, now: now)
      try revokeSessions(of: user.id, through: now / 1_000, database)
      return .success(info)
    }.get()
  }

  /// `accounts:update` with `oobCode`: `VERIFY_EMAIL` verifies the email;
  /// `VERIFY_AND_CHANGE_EMAIL` moves the account to its new email, verified; `RECOVER_EMAIL`
  /// takes the account that left the code's address back to it, verified (`EMAIL_EXISTS` when
  /// another has it). A `PASSWORD_RESET` or `EMAIL_SIGNIN` code is the emulator's `501`, and
  /// stays unspent. No tokens change.
  package func applyCode(_ code: String) throws(IdentityToolkitError) -> FirebaseAppliedCode {
    try write { database, now -> Result<FirebaseAppliedCode, IdentityToolkitError> in
      let record = try storedCode(code, database, now: now)
      if [.passwordReset, .emailSignIn].contains(record.type) {
        throw Self.notImplemented(record.type.rawValue)
      }
      try spend(record, database, now: now)
      let user: UserRecord?
      switch record.type {
      case .recoverEmail:
        user = try record.userID.flatMap { try database.user(id: $0) }.flatMap { user in
          user.deletedAt == nil && user.initialEmail == record.email ? user : nil
        }
      default:
        user = try owner(of: record, database)
      }
      guard let user, record.type != .verifyAndChangeEmail || record.newEmail != nil else {
        return .failure(.badRequest(.invalidOOBCode))
      }
      let address = record.type == .recoverEmail ? record.email : record.newEmail
      if let address {
        if try liveUser(email: address, database) != nil {
          return .failure(.badRequest(.emailExists))
        }
        try moveEmail(of: user, to: address, database, now: now)
      } else {
        try setEmailVerified(true, of: user.id, database, now: now)
      }
      let account = try account(try existingUser(user.id, database), database, now: now)
      return .success(
        FirebaseAppliedCode(
          type: record.type, account: account,
          newEmail: record.type == .verifyAndChangeEmail ? address : nil))
    }.get()
  }

  /// The account a code names by its address (the emulator's `getUserByEmail(oob.email)`),
  /// when it is still the account the code was made for: a code sent before an email change,
  /// or before the account was deleted and its address taken again, names no one.
  private func owner(of record: CodeRecord, _ database: EngineAccounts) throws -> UserRecord? {
    guard let user = try liveUser(email: record.email, database),
      record.userID == nil || record.userID == user.id
    else { return nil }
    return user
  }
}
