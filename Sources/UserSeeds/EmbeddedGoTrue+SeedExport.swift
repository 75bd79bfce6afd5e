import AccountStore
import GoTrue
import GoTrueEngine

extension EmbeddedGoTrue {
  /// Every account of the store (deleted ones aside) as a users file would give it, oldest
  /// first: passwords as their bcrypt hashes (none for an account without one anyone knows),
  /// phone numbers with whether they are confirmed.
  package func seedAccounts() throws(GoTrueFailure) -> [SeedAccount] {
    let now = nowMillis
    return try withDatabase { database throws(GoTrueAPIError) in
      let decoys = Set(try database.decoyHashes())
      let users = try database.liveUsersOldestFirst()
      return users.map { user in Self.seedAccount(user, decoys: decoys, now: now) }
    }
  }

  private static func seedAccount(_ user: UserRecord, decoys: Set<String>, now: Int64)
    -> SeedAccount
  {
    var account = SeedAccount(id: user.id, email: user.email.isEmpty ? nil : user.email)
    if !decoys.contains(user.passwordHash), SeedFields.isBcrypt(user.passwordHash),
      !account.isAnonymous
    {
      account.password = .bcrypt(user.passwordHash)
    }
    account.emailConfirmed = user.isConfirmed
    account.phone = user.phone
    account.phoneConfirmed = user.phoneConfirmedAt != nil
    account.userMetadata = user.userMetadata
    account.appMetadata = user.appMetadata
    account.role = user.role
    account.displayName = user.displayName
    account.photoURL = user.photoURL
    account.customClaims = user.customClaims.flatMap { $0.isEmpty ? nil : $0 }
    account.disabled = user.isBanned(at: now)
    account.createdAt = user.createdAt
    account.lastSignInAt = user.lastSignInAt
    return account
  }
}
