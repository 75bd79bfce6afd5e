import AccountStore
import AuthCrypto
import GoTrue
import GoTrueEngine

/// How applying a users file changed the store.
package struct SeedOutcome: Equatable, Sendable {
  /// Accounts the store did not have.
  package var added = 0
  /// Accounts brought to the file's values.
  package var updated = 0
  /// Accounts that already had them.
  package var unchanged = 0
}

extension EmbeddedGoTrue {
  /// Disabled accounts are banned until the last millisecond of year 9999, as the Firebase
  /// surface disables them.
  static let disabledUntil: Int64 = 253_402_300_799_999

  /// Brings the store to `accounts` in one write transaction: an id it lacks is added, one it
  /// has gets the file's values, and an account that has them already is left as it is (its
  /// `updated_at` too), so applying a file again changes nothing. Plain passwords are hashed
  /// with bcrypt at the store's cost before the transaction (a stored hash that matches is
  /// kept). An address or phone number held by an account outside the file refuses the whole
  /// file, before anything is written; `file` names it in the error.
  @discardableResult
  package func seed(_ accounts: [SeedAccount], file: String) throws(UsersFileError)
    -> SeedOutcome
  {
    func failure(_ error: GoTrueFailure) -> UsersFileError {
      UsersFileError(file: file, problem: "cannot be applied to the store (\(error))")
    }
    let hashes: [String]
    do {
      hashes = try passwordHashes(accounts)
    } catch {
      throw failure(error)
    }
    let outcome: Result<SeedOutcome, UsersFileError>
    do {
      outcome = try answer(spending: nil) { database, now throws(GoTrueAPIError) in
        if let conflict = try emailConflict(accounts, database, file: file) {
          return .failure(conflict)
        }
        if let conflict = try phoneConflict(accounts, database, file: file) {
          return .failure(conflict)
        }
        // Addresses and numbers that move between the file's accounts are let go first, so
        // that a swap never holds one twice.
        for account in accounts {
          guard let stored = try database.user(id: account.id) else { continue }
          if stored.email != account.email ?? "", !stored.email.isEmpty {
            try database.updateUser(account.id, [.email(nil)])
          }
          if stored.phone != nil, stored.phone != account.phone {
            try database.updateUser(account.id, [.phone(nil)])
          }
        }
        var outcome = SeedOutcome()
        for (account, hash) in zip(accounts, hashes) {
          let existed = try database.user(id: account.id) != nil
          let changed = try write(account, hash: hash, database, now: now)
          if !existed {
            outcome.added += 1
          } else if changed {
            outcome.updated += 1
          } else {
            outcome.unchanged += 1
          }
        }
        return .success(outcome)
      }
    } catch {
      throw failure(error)
    }
    return try outcome.get()
  }

  /// The hash each account's password is stored as: a stored one its plain password matches,
  /// or a new one; a given bcrypt hash; or the store's decoy (no password anyone knows).
  private func passwordHashes(_ accounts: [SeedAccount]) throws(GoTrueFailure) -> [String] {
    var hashes: [String] = []
    for account in accounts {
      switch account.password {
      case .none: hashes.append(secrets.decoyHash)
      case .bcrypt(let hash): hashes.append(hash)
      case .plain(let password):
        let stored = try withDatabase { database throws(GoTrueAPIError) in
          try database.user(id: account.id)
        }
        let check = stored.map { checkPassword(password, against: $0.passwordHash) }
        if let stored, let check, check.matches {
          hashes.append(check.rehash ?? stored.passwordHash)
        } else {
          hashes.append(try hashPassword(password))
        }
      }
    }
    return hashes
  }

  /// The first account whose address an account outside the file holds.
  private func emailConflict(_ accounts: [SeedAccount], _ database: EngineAccounts, file: String)
    throws(GoTrueAPIError) -> UsersFileError?
  {
    let ids = Set(accounts.map(\.id))
    for (index, account) in accounts.enumerated() {
      guard let email = account.email, let holder = try database.user(email: email),
        !ids.contains(holder.id)
      else { continue }
      return UsersFileError(
        file: file, entry: "users[\(index)] (\(account.id))", field: "email",
        problem: "\(email) belongs to account \(holder.id) in the store; "
          + "change the address, or delete that account first")
    }
    return nil
  }

  /// The first account whose phone number an account outside the file holds.
  private func phoneConflict(_ accounts: [SeedAccount], _ database: EngineAccounts, file: String)
    throws(GoTrueAPIError) -> UsersFileError?
  {
    let ids = Set(accounts.map(\.id))
    for (index, account) in accounts.enumerated() {
      guard let phone = account.phone, let holder = try database.user(phone: phone),
        !ids.contains(holder.id)
      else { continue }
      return UsersFileError(
        file: file, entry: "users[\(index)] (\(account.id))", field: "phone",
        problem: "+\(phone) belongs to account \(holder.id) in the store; "
          + "change the number, or delete that account first")
    }
    return nil
  }

  /// Adds `account` or brings it to the file's values; whether an existing row changed.
  private func write(_ account: SeedAccount, hash: String, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError) -> Bool
  {
    // GoTrue's providers: email first when there is one, then phone.
    let providers =
      (account.email == nil ? [] : ["email"]) + (account.phone == nil ? [] : ["phone"])
    let provider: [String: JSONValue] = [
      "provider": .string(providers.first ?? "email"),
      "providers": .array(providers.map(JSONValue.string)),
    ]
    var user: UserRecord
    if let existing = try database.user(id: account.id) {
      user = existing
    } else if let email = account.email {
      user = try insertUser(
        id: account.id, email: email, passwordHash: hash, data: [:],
        userMetadata: account.userMetadata, appMetadata: account.appMetadata, role: account.role,
        confirmed: account.emailConfirmed, database, now: now)
    } else {
      user = try insertUserWithoutAddress(
        id: account.id, anonymous: account.isAnonymous, data: account.userMetadata, database,
        now: now)
    }
    let appMetadata =
      account.isAnonymous
      ? account.appMetadata : UserRecord.merging(account.appMetadata, into: provider)
    let confirmedAt = account.emailConfirmed ? (user.emailConfirmedAt ?? now) : nil
    let phoneConfirmedAt = account.phoneConfirmed ? (user.phoneConfirmedAt ?? now) : nil
    let bannedUntil = account.disabled ? Self.disabledUntil : nil
    var changes: [UserChange] = []
    func set(_ change: UserChange, when differs: Bool) {
      if differs { changes.append(change) }
    }
    set(.email(account.email), when: user.email != account.email ?? "")
    set(.passwordHash(hash), when: user.passwordHash != hash)
    set(.emailConfirmedAt(confirmedAt), when: user.emailConfirmedAt != confirmedAt)
    set(.phone(account.phone), when: user.phone != account.phone)
    set(.phoneConfirmedAt(phoneConfirmedAt), when: user.phoneConfirmedAt != phoneConfirmedAt)
    set(.userMetadata(account.userMetadata), when: user.userMetadata != account.userMetadata)
    set(.appMetadata(appMetadata), when: user.appMetadata != appMetadata)
    set(.role(account.role), when: user.role != account.role)
    set(.displayName(account.displayName), when: user.displayName != account.displayName)
    set(.photoURL(account.photoURL), when: user.photoURL != account.photoURL)
    set(.customClaims(account.customClaims), when: user.customClaims != account.customClaims)
    set(.bannedUntil(bannedUntil), when: user.bannedUntil != bannedUntil)
    set(.isAnonymous(account.isAnonymous), when: user.isAnonymous != account.isAnonymous)
    if account.email != nil, user.isAnonymous {
      changes.append(.identityID(random.uuidString(), keepingAny: false))
    }
    if let created = account.createdAt {
      set(.createdAt(created), when: user.createdAt != created)
    }
    if let signedIn = account.lastSignInAt {
      set(.lastSignInAt(signedIn), when: user.lastSignInAt != signedIn)
    }
    guard !changes.isEmpty else { return false }
    changes.append(.updatedAt(now))
    try database.updateUser(account.id, changes)
    try writePhoneIdentity(account, of: user, database, now: now)
    return true
  }

  /// The phone identity GoTrue keeps with a number: made or brought to the file's number and
  /// confirmation, or gone with the number.
  private func writePhoneIdentity(
    _ account: SeedAccount, of user: UserRecord, _ database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) {
    guard let phone = account.phone else {
      if user.phone != nil || user.phoneIdentityID != nil {
        try database.removePhone(ofUser: account.id)
      }
      return
    }
    guard
      phone != user.phone || account.phoneConfirmed != (user.phoneConfirmedAt != nil)
        || user.phoneIdentityID == nil
    else { return }
    try database.setPhoneIdentity(
      id: user.phoneIdentityID ?? random.uuidString(), userID: account.id, phone: phone,
      confirmed: account.phoneConfirmed, now: now)
  }
}
