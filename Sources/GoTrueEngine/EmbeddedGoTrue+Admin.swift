import AccountStore
import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's admin API (`/admin/users`), for a caller already checked with
/// ``EmbeddedGoTrue/authorizeAdmin(_:)``. Admins are trusted with the rules users are held to:
/// no email is sent, and a new user's password is only held to bcrypt's limit, as in GoTrue.
extension EmbeddedGoTrue {
  /// How `GET /admin/users` orders its pages.
  package enum UserOrder: Sendable {
    /// Newest first (GoTrue's default, `created_at desc`).
    case newestFirst
    /// Oldest first (`created_at asc`).
    case oldestFirst
  }

  /// One page of users, `perPage` to a page from page 1, optionally only those whose email or
  /// `full_name` contains `filter`. Users in a list carry no identities or factors, as GoTrue's
  /// list does.
  package func listUsers(
    page: Int, perPage: Int, filter: String? = nil, order: UserOrder = .newestFirst
  ) throws(GoTrueFailure) -> GoTrueUserPage {
    try listUsers(
      limit: perPage, offset: Int64(max(0, page - 1)) * Int64(perPage), filter: filter,
      order: order)
  }

  /// At most `limit` users after skipping `offset`, optionally only those whose email or
  /// metadata holds `filter`, and how many match in all.
  package func listUsers(
    limit: Int, offset: Int64, filter: String? = nil, order: UserOrder = .newestFirst
  ) throws(GoTrueFailure) -> GoTrueUserPage {
    try withDatabase { database throws(GoTrueAPIError) in
      let (users, total) = try database.users(
        UserQuery(
          containing: filter, newestFirst: order == .newestFirst, limit: limit, offset: offset))
      return GoTrueUserPage(
        users: users.map {
          var user = $0.goTrueUser
          user.identities = nil
          user.factors = nil
          return user
        }, total: total)
    }
  }

  /// `GET /admin/users/{id}`.
  package func user(id: String) throws(GoTrueFailure) -> GoTrueUser {
    try withDatabase { database throws(GoTrueAPIError) in
      try Self.existingUser(id, database).goTrueUser
    }
  }

  /// `POST /admin/users`: a user with an email, confirmed at once with `email_confirm`, with
  /// the given password or bcrypt hash (none: no password anyone knows).
  @concurrent
  package func createUser(_ attributes: GoTrueAdminUserAttributes) async throws(GoTrueFailure)
    -> GoTrueUser
  {
    let rawEmail = attributes.email.flatMap { $0.isEmpty ? nil : $0 }
    let rawPhone = attributes.phone.flatMap { $0.isEmpty ? nil : $0 }
    guard rawEmail != nil || rawPhone != nil else {
      throw .api(Self.invalid("Cannot create a user without either an email or phone"))
    }
    let email = try rawEmail.map { email throws(GoTrueFailure) in try EmailRules.validated(email) }
    let phone = try rawPhone.map { phone throws(GoTrueFailure) in try PhoneRules.normalized(phone) }
    if let id = attributes.id, !UUIDText.isValid(id) {
      throw .api(Self.invalid("ID must conform to the uuid v4 format"))
    }
    let banUntil = try banEnd(attributes.banDuration)
    let hash = try passwordHash(attributes, checkingStrength: false) ?? secrets.decoyHash
    try checkCancellation()
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      if let email, try database.user(email: email) != nil { throw Self.emailTaken }
      if let phone, try database.user(phone: phone) != nil {
        throw PhoneRules.taken
      }
      if let id = attributes.id, try database.user(id: id.lowercased()) != nil {
        throw GoTrueAPIError(
          status: 422, code: .userAlreadyExists, message: "User already registered")
      }
      // GoTrue's providers: email first when there is one (`app_metadata.provider`).
      let providers = (email == nil ? [] : ["email"]) + (phone == nil ? [] : ["phone"])
      let app = UserRecord.merging(
        attributes.appMetadata ?? [:],
        into: [
          "provider": .string(providers[0]), "providers": .array(providers.map(JSONValue.string)),
        ])
      let confirmed = attributes.emailConfirm ?? false
      var user: UserRecord
      if let email {
        user = try insertUser(
          id: attributes.id?.lowercased(), email: email, passwordHash: hash, data: [:],
          userMetadata: attributes.userMetadata ?? [:], appMetadata: app,
          role: attributes.role ?? "authenticated", confirmed: confirmed, database, now: now)
      } else {
        var new = NewUser(
          id: attributes.id?.lowercased() ?? random.uuidString(), email: nil, passwordHash: hash,
          identityID: nil, now: now)
        new.userMetadata = attributes.userMetadata ?? [:]
        new.role = attributes.role ?? "authenticated"
        new.appMetadata = app
        user = try database.insertUser(new)
      }
      if let phone {
        user = try setPhone(
          phone, confirmed: attributes.phoneConfirm == true, of: user, database, now: now)
      }
      if let banUntil {
        try database.updateUser(user.id, [.bannedUntil(banUntil(now))])
      }
      var traits = AuditActor.traits(of: user)
      traits["provider"] = .string(providers[0])
      try audit(database, .admin, .userSignedUp, traits: traits, now: now)
      return try Self.existingUser(user.id, database).goTrueUser
    }
  }

  /// Gives `user` the phone number `phone` (GoTrue's `SetPhone`, confirmed at once with
  /// `confirmed`), with the phone identity GoTrue makes or updates for it.
  private func setPhone(
    _ phone: String, confirmed: Bool, of user: UserRecord, _ database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) -> UserRecord {
    var changes: [UserChange] = [.phone(phone), .updatedAt(now)]
    if confirmed {
      changes.append(.phoneConfirmedAt(now))
    } else if phone != user.phone {
      changes.append(.phoneConfirmedAt(nil))
    }
    try database.updateUser(user.id, changes)
    try database.setPhoneIdentity(
      id: user.phoneIdentityID ?? random.uuidString(), userID: user.id, phone: phone,
      confirmed: confirmed || (phone == user.phone && user.phoneConfirmedAt != nil), now: now)
    return try database.existingUser(id: user.id)
  }

  /// `PUT /admin/users/{id}`: email (changed at once), password (held to the minimum length),
  /// `email_confirm`, metadata merged key by key, role and ban.
  @concurrent
  package func updateUser(id: String, _ attributes: GoTrueAdminUserAttributes)
    async throws(GoTrueFailure) -> GoTrueUser
  {
    let email = try attributes.email.map { email throws(GoTrueFailure) in
      try EmailRules.validated(email)
    }
    let phone = try attributes.phone.flatMap { $0.isEmpty ? nil : $0 }.map {
      phone throws(GoTrueFailure) in try PhoneRules.normalized(phone)
    }
    let banUntil = try banEnd(attributes.banDuration)
    _ = try withDatabase { database throws(GoTrueAPIError) in try Self.existingUser(id, database) }
    let hash = try passwordHash(attributes, checkingStrength: true)
    try checkCancellation()
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try Self.existingUser(id, database)
      var changes: [UserChange] = [.updatedAt(now)]
      if let email, email != user.email {
        if try database.user(email: email) != nil { throw Self.emailTaken }
        changes.append(.email(email))
      }
      if let hash { changes.append(.passwordHash(hash)) }
      if attributes.emailConfirm == true, !user.isConfirmed {
        changes.append(.emailConfirmedAt(now))
      }
      if let metadata = attributes.userMetadata {
        changes.append(.userMetadata(UserRecord.merging(metadata, into: user.userMetadata)))
      }
      if let metadata = attributes.appMetadata {
        changes.append(.appMetadata(UserRecord.merging(metadata, into: user.appMetadata)))
      }
      if let role = attributes.role { changes.append(.role(role)) }
      if let banUntil { changes.append(.bannedUntil(banUntil(now))) }
      if let phone, phone != user.phone, let holder = try database.user(phone: phone),
        holder.id != user.id
      {
        throw PhoneRules.taken
      }
      var updated = try database.updatedUser(user.id, changes)
      if let phone {
        updated = try setPhone(
          phone, confirmed: attributes.phoneConfirm == true, of: updated, database, now: now)
      } else if attributes.phoneConfirm == true, updated.phone != nil,
        updated.phoneConfirmedAt == nil
      {
        updated = try database.updatedUser(user.id, [.phoneConfirmedAt(now)])
      }
      try checkTokenFits(updated)
      try audit(database, .admin, .userModified, traits: AuditActor.traits(of: updated), now: now)
      return updated.goTrueUser
    }
  }

  /// `DELETE /admin/users/{id}`: removes the user with everything it owns, or with `softly`
  /// keeps the row, its email obfuscated and metadata cleared, and ends its sessions and
  /// removes its factors.
  package func deleteUser(id: String, softly: Bool = false) throws(GoTrueFailure) {
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try Self.existingUser(id, database)
      try audit(database, .admin, .userDeleted, traits: AuditActor.traits(of: user), now: now)
      guard softly else {
        try database.deleteUser(user.id)
        return
      }
      let obfuscated = SHA256.hash("\(user.id):\(user.email)").hexString
      try database.updateUser(
        user.id,
        [
          .email(obfuscated), .newEmail(nil), .userMetadata([:]), .appMetadata([:]),
          .identityData([:]), .deletedAt(now), .updatedAt(now),
        ])
      try database.deleteBelongings(ofUser: user.id)
    }
  }

  // MARK: Rules

  static func existingUser(_ id: String, _ database: EngineAccounts) throws(GoTrueAPIError)
    -> UserRecord
  {
    guard UUIDText.isValid(id) else {
      throw GoTrueAPIError(status: 404, code: .validationFailed, message: "user_id must be an UUID")
    }
    guard let user = try database.user(id: id.lowercased()) else {
      throw GoTrueAPIError(status: 404, code: .userNotFound, message: "User not found")
    }
    return user
  }

  static let emailTaken = GoTrueAPIError(
    status: 422, code: .emailExists,
    message: "A user with this email address has already been registered")

  static func invalid(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 400, code: .validationFailed, message: message)
  }

  /// The hash to store: of `password` (bcrypt's limit always; the minimum length on update, as
  /// GoTrue), or the given bcrypt `password_hash`; `nil` when neither is given.
  private func passwordHash(_ attributes: GoTrueAdminUserAttributes, checkingStrength: Bool)
    throws(GoTrueFailure) -> String?
  {
    switch (attributes.password, attributes.passwordHash) {
    case (.some, .some):
      throw .api(Self.invalid("Only a password or a password hash should be provided"))
    case (.some(let password), nil):
      if checkingStrength {
        try checkPasswordStrength(password)
      } else {
        try checkPasswordBytes(password)
      }
      return try hashPassword(password)
    case (nil, .some(let hash)):
      guard let cost = Bcrypt.cost(of: hash) else {
        throw .api(Self.invalid("Invalid password hash format: only bcrypt hashes are supported"))
      }
      // Beyond GoTrue, which takes any cost: one sign-in at cost 31 holds a core for days, and
      // anyone may try a password.
      let highest = EngineConfiguration.hashCosts.upperBound
      guard cost <= highest else {
        throw .api(
          Self.invalid(
            "Invalid password hash format: bcrypt cost \(cost) is above the highest this server "
              + "checks at sign-in (\(highest)); rehash at cost \(highest) or lower"))
      }
      return hash
    case (nil, nil):
      return nil
    }
  }

  /// When a ban of `duration` (a Go duration such as `24h`, or `none`) ends, as a function of
  /// the time the change is made; `nil` when no ban is asked for.
  private func banEnd(_ duration: String?) throws(GoTrueFailure) -> (@Sendable (Int64) -> Int64?)? {
    guard let duration else { return nil }
    if duration == "none" { return { _ in nil } }
    guard let seconds = GoDuration.seconds(duration) else {
      throw .api(
        Self.invalid("invalid format for ban duration: time: invalid duration \"\(duration)\""))
    }
    let millis = Int64(max(-315_360_000, min(seconds, 315_360_000)) * 1_000)
    return { now in now + millis }
  }
}

/// What `POST /admin/generate_link` gives an admin: the user and the code and link an email
/// would have carried, with nothing sent.
package struct GeneratedLink: Equatable, Sendable {
  /// The user the link is for (created when the type makes one).
  package var user: GoTrueUser
  /// The link, as an email would carry it.
  package var actionLink: String
  /// The 6-digit code.
  package var code: String
  /// GoTrue's hash of the address and the code, the link's `token`.
  package var tokenHash: String
  /// The type the code verifies (a magic link for a new address becomes `signup`).
  package var verificationType: String
  /// Where the link leads once verified.
  package var redirectTo: String
}
