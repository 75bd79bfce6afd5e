import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Which users to list, in which order.
package struct UserQuery: Sendable {
  /// Only users whose email or `full_name` metadata contains this text, ignoring case.
  package var containing: String?
  /// Newest first (GoTrue's admin list), else oldest first.
  package var newestFirst: Bool
  package var limit: Int
  package var offset: Int64

  package init(containing: String?, newestFirst: Bool, limit: Int, offset: Int64) {
    self.containing = containing
    self.newestFirst = newestFirst
    self.limit = limit
    self.offset = offset
  }
}

/// A user to add: what the rules set; every other column takes its default.
package struct NewUser: Sendable {
  package var id: String
  /// The address, or `nil` for an anonymous user.
  package var email: String?
  package var passwordHash: String
  package var emailConfirmedAt: Int64? = nil
  package var confirmationSentAt: Int64? = nil
  package var lastSignInAt: Int64? = nil
  package var userMetadata: [String: JSONValue] = [:]
  package var role = "authenticated"
  /// `nil` keeps the store's default (the email provider).
  package var appMetadata: [String: JSONValue]? = nil
  /// The email identity's id, or `nil` for a user without one (anonymous).
  package var identityID: String?
  package var identityData: [String: JSONValue] = [:]
  package var isAnonymous = false
  /// The identity's provider: `email`, or `web3` for a wallet's.
  package var identityProvider = "email"
  /// The identity's name at a provider other than email (`web3:solana:<address>`).
  package var identityProviderID: String?
  /// The phone number (E.164 digits, no `+`), when the user has one.
  package var phone: String? = nil
  /// When the phone number was confirmed.
  package var phoneConfirmedAt: Int64? = nil
  /// The phone identity's id, made with the number.
  package var phoneIdentityID: String? = nil
  /// When it is made (its `created_at` and `updated_at`).
  package var now: Int64

  package init(id: String, email: String?, passwordHash: String, identityID: String?, now: Int64) {
    self.id = id
    self.email = email
    self.passwordHash = passwordHash
    self.identityID = identityID
    self.now = now
  }
}

extension Accounts {
  /// The user with the phone number `phone` (E.164 digits, no `+`), deleted or not.
  package func user(phone: String) throws(Failure) -> UserRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.user(phone: phone) }
    }
    return try first(
      "SELECT \(UserRecord.columns) FROM users WHERE phone = ?", .text(phone), row: UserRecord.init)
  }

  /// The user whose new phone number `phone` waits for its code.
  package func user(phoneChange phone: String) throws(Failure) -> UserRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.user(phoneChange: phone)
      }
    }
    return try first(
      "SELECT \(UserRecord.columns) FROM users WHERE phone_change = ?", .text(phone),
      row: UserRecord.init)
  }

  /// Makes or updates the phone identity `id` of user `userID` for `phone` (GoTrue makes one
  /// when a number is set); its data says whether the number is `confirmed`.
  package func setPhoneIdentity(
    id: String, userID: String, phone: String, confirmed: Bool, now: Int64
  ) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.setPhoneIdentity(
          id: id, userID: userID, phone: phone, confirmed: confirmed, now: now)
      }
    }
    try run(
      "UPDATE users SET phone_identity_id = coalesce(phone_identity_id, ?) WHERE id = ?",
      .text(id), .text(userID))
  }

  /// The user with `email`, deleted or not.
  package func user(email: String) throws(Failure) -> UserRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.user(email: email) }
    }
    return try first(
      "SELECT \(UserRecord.columns) FROM users WHERE email = ?", .text(email), row: UserRecord.init)
  }

  /// The user with `id`, deleted or not.
  package func user(id: String) throws(Failure) -> UserRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.user(id: id) }
    }
    return try first(
      "SELECT \(UserRecord.columns) FROM users WHERE id = ?", .text(id), row: UserRecord.init)
  }

  /// The user with `id`, and whether its session `sessionID` is live: what every request with
  /// an access token asks, in one read of the store.
  package func user(id: String, session sessionID: String) throws(Failure)
    -> (user: UserRecord, hasSession: Bool)?
  {
    if postgres != nil {
      guard let user = try user(id: id) else { return nil }
      return (user, try session(id: sessionID, ofUser: id) != nil)
    }
    return try first(
      """
      SELECT \(UserRecord.columns),
        EXISTS (SELECT 1 FROM sessions WHERE id = ? AND user_id = users.id)
      FROM users WHERE id = ?
      """, .text(sessionID), .text(id)
    ) { row in (UserRecord(row), row.int(UserRecord.columnCount) != 0) }
  }

  /// The user with `id`, which this transaction knows exists (it made or read it).
  package func existingUser(id: String) throws(Failure) -> UserRecord {
    guard let user = try user(id: id) else {
      throw failure("the user \(id) is missing from the store")
    }
    return user
  }

  /// Adds `user` and answers it as stored.
  @discardableResult
  package func insertUser(_ user: NewUser) throws(Failure) -> UserRecord {
    if let postgres {
      try onPostgres { () throws(AccountStoreError) in try postgres.insertUser(user) }
      return try existingUser(id: user.id)
    }
    let app = user.appMetadata.map { SQLiteValue.text(UserRecord.encodeMetadata($0)) }
    try run(
      """
      INSERT INTO users (id, email, encrypted_password, email_confirmed_at, confirmation_sent_at,
        last_sign_in_at, user_metadata, created_at, updated_at, role, app_metadata, identity_id,
        identity_data, is_anonymous, identity_provider, identity_provider_id, phone,
        phone_confirmed_at, phone_identity_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, \(UserRecord.defaultAppMetadata)), ?, ?, ?,
        ?, ?, ?, ?, ?)
      """, .text(user.id), .optional(user.email), .text(user.passwordHash),
      .optional(user.emailConfirmedAt), .optional(user.confirmationSentAt),
      .optional(user.lastSignInAt), .text(UserRecord.encodeMetadata(user.userMetadata)),
      .integer(user.now), .integer(user.now), .text(user.role), app ?? .null,
      .optional(user.identityID),
      .text(UserRecord.encodeMetadata(user.identityData)), .integer(user.isAnonymous ? 1 : 0),
      .text(user.identityProvider), .optional(user.identityProviderID), .optional(user.phone),
      .optional(user.phoneConfirmedAt), .optional(user.phoneIdentityID))
    return try existingUser(id: user.id)
  }

  /// The user whose identity at `provider` is named `providerID` (GoTrue's
  /// `FindIdentityByIdAndProvider`), deleted or not.
  package func user(identityProvider provider: String, providerID: String) throws(Failure)
    -> UserRecord?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.user(identityProvider: provider, providerID: providerID)
      }
    }
    return try first(
      """
      SELECT \(UserRecord.columns) FROM users
      WHERE identity_provider = ? AND identity_provider_id = ?
      """, .text(provider), .text(providerID), row: UserRecord.init)
  }

  /// One page of users, and how many users match in all.
  package func users(_ query: UserQuery) throws(Failure) -> (
    users: [UserRecord], total: Int
  ) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.usersPage(query) }
    }
    let condition =
      query.containing.map { _ in
        """
        WHERE instr(email, lower(?1)) > 0
          OR instr(lower(coalesce(json_extract(user_metadata, '$.full_name'), '')), lower(?1)) > 0
        """
      } ?? ""
    let values: [SQLiteValue] = query.containing.map { [.text($0)] } ?? []
    let direction = query.newestFirst ? "DESC" : "ASC"
    let total =
      try first("SELECT count(*) FROM users \(condition)", values, row: { Int($0.int(0)) }) ?? 0
    let users = try self.query(
      """
      SELECT \(UserRecord.columns) FROM users \(condition)
      ORDER BY created_at \(direction), id \(direction) LIMIT \(query.limit) OFFSET \(query.offset)
      """, values, row: UserRecord.init)
    return (users, total)
  }

  /// Removes user `id` with everything it owns.
  package func deleteUser(_ id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.deleteUser(id) }
    }
    try run("DELETE FROM users WHERE id = ?", .text(id))
  }

  /// Removes what user `id` owns (sessions, codes, factors) but not the user.
  package func deleteBelongings(ofUser id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteBelongings(ofUser: id)
      }
    }
    try run("DELETE FROM sessions WHERE user_id = ?", .text(id))
    try run("DELETE FROM one_time_tokens WHERE user_id = ?", .text(id))
    try run("DELETE FROM mfa_factors WHERE user_id = ?", .text(id))
  }

  /// Adds `user` unless its address is taken (or its id); answers whether it was added.
  package func insertUserUnlessTaken(_ user: NewUser) throws(Failure) -> Bool {
    if let email = user.email, try self.user(email: email) != nil { return false }
    if try self.user(id: user.id) != nil { return false }
    try insertUser(user)
    return true
  }

  /// Removes the user with `email` with everything it owns, if there is one.
  package func deleteUser(email: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.deleteUser(email: email)
      }
    }
    try run("DELETE FROM users WHERE email = ?", .text(email))
  }

  /// Users not deleted whose id comes after `id`, by id, at most `limit` (all when `nil`).
  package func liveUsers(after id: String, limit: Int?) throws(Failure) -> [UserRecord] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.liveUsers(after: id, limit: limit)
      }
    }
    return try query(
      """
      SELECT \(UserRecord.columns) FROM users WHERE deleted_at IS NULL AND id > ?
      ORDER BY id LIMIT ?
      """, .text(id), .integer(limit.map(Int64.init) ?? -1), row: UserRecord.init)
  }

  /// Every user not deleted, by id.
  package func liveUsers(descending: Bool) throws(Failure) -> [UserRecord] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.liveUsers(descending: descending)
      }
    }
    return try query(
      """
      SELECT \(UserRecord.columns) FROM users WHERE deleted_at IS NULL
      ORDER BY id \(descending ? "DESC" : "ASC")
      """, row: UserRecord.init)
  }

  /// Every user not deleted, oldest first.
  package func liveUsersOldestFirst() throws(Failure) -> [UserRecord] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.liveUsersOldestFirst() }
    }
    return try query(
      "SELECT \(UserRecord.columns) FROM users WHERE deleted_at IS NULL ORDER BY created_at, id",
      row: UserRecord.init)
  }

  /// How many users are not deleted.
  package func liveUserCount() throws(Failure) -> Int {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.userCount(live: true) }
    }
    return try first("SELECT count(*) FROM users WHERE deleted_at IS NULL", row: { Int($0.int(0)) })
      ?? 0
  }

  /// Removes every user, with everything they own.
  package func deleteAllUsers() throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.deleteAllUsers() }
    }
    try run("DELETE FROM users")
  }

  /// How many accounts the store holds.
  package func userCount() throws(Failure) -> Int {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.userCount(live: false) }
    }
    return try first("SELECT count(*) FROM users", row: { Int($0.int(0)) }) ?? 0
  }
}
