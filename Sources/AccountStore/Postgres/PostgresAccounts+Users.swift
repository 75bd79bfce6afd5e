import GoTrue

/// The users on PostgreSQL: GoTrue's `auth.users` with its email identity (`auth.identities`),
/// and what the Firebase surface adds (`authflow.user_extras`). Times are read and written in
/// authflow's Unix milliseconds (`authflow.ms`, `authflow.ts`).
extension PostgresConnection {
  /// ``UserRecord/columns`` on GoTrue's tables, in the same order and kinds.
  package static let userColumns = """
    coalesce(x.firebase_uid, u.id::text), coalesce(u.email, ''), coalesce(u.encrypted_password, ''),
    authflow.ms(u.email_confirmed_at), authflow.ms(u.confirmation_sent_at),
    authflow.ms(u.recovery_sent_at), authflow.ms(u.last_sign_in_at),
    coalesce(u.raw_user_meta_data, '{}'::jsonb)::text, coalesce(authflow.ms(u.created_at), 0),
    coalesce(authflow.ms(u.updated_at), 0), coalesce(nullif(u.role, ''), 'authenticated'),
    coalesce(u.raw_app_meta_data, '{}'::jsonb)::text, i.id::text,
    coalesce(i.identity_data, '{}'::jsonb)::text, nullif(u.email_change, ''),
    authflow.ms(u.email_change_sent_at), coalesce(u.email_change_confirm_status, 0) <> 0,
    authflow.ms(u.banned_until), authflow.ms(u.deleted_at), x.display_name, x.valid_since,
    x.password_updated_at, x.photo_url, coalesce(u.is_anonymous, false),
    authflow.ms(u.invited_at), authflow.ms(u.reauthentication_sent_at),
    (SELECT coalesce(json_agg(json_build_array(f.id, f.friendly_name, f.status,
        authflow.ms(f.created_at), authflow.ms(f.updated_at), authflow.ms(f.last_challenged_at))),
      '[]') FROM auth.mfa_factors f WHERE f.user_id = u.id)::text,
    x.initial_email, x.custom_claims, coalesce(x.email_link_signin, false),
    coalesce(x.custom_auth, false), coalesce(i.provider, 'email'),
    CASE WHEN i.provider <> 'email' THEN i.provider_id END, nullif(u.phone, ''),
    authflow.ms(u.phone_confirmed_at),
    (SELECT p.id::text FROM auth.identities p WHERE p.user_id = u.id AND p.provider = 'phone'
      ORDER BY p.created_at, p.id LIMIT 1), nullif(u.phone_change, ''),
    authflow.ms(u.phone_change_sent_at)
    """

  /// The tables ``userColumns`` reads.
  package static let userTables = """
    auth.users u
    LEFT JOIN LATERAL (SELECT id, identity_data, provider, provider_id FROM auth.identities
      WHERE user_id = u.id AND provider IN ('email', 'web3')
      ORDER BY provider = 'email' DESC, created_at, id LIMIT 1) i ON true
    LEFT JOIN authflow.user_extras x ON x.user_id = u.id
    """

  func users(where condition: String, _ values: [PostgresValue], suffix: String = "")
    throws(AccountStoreError) -> [UserRecord]
  {
    let rows = try query(
      "SELECT \(Self.userColumns) FROM \(Self.userTables) WHERE \(condition) \(suffix) \(lock("u"))",
      values)
    var users: [UserRecord] = []
    users.reserveCapacity(rows.count)
    for index in 0..<rows.count { users.append(try UserRecord(rows[index])) }
    return users
  }

  func user(phone: String) throws(AccountStoreError) -> UserRecord? {
    guard !phone.utf8.contains(0) else { return nil }
    return try users(where: "u.phone = $1", [.text(phone)], suffix: "LIMIT 1").first
  }

  func user(email: String) throws(AccountStoreError) -> UserRecord? {
    // PostgreSQL's text holds no NUL, so no stored address has one.
    guard !email.utf8.contains(0) else { return nil }
    return try users(
      where: "lower(u.email) = lower($1) AND NOT u.is_sso_user", [.text(email)],
      suffix: "ORDER BY u.created_at LIMIT 1"
    ).first
  }

  func user(id: String) throws(AccountStoreError) -> UserRecord? {
    guard !id.utf8.contains(0) else { return nil }
    return try users(where: "u.id = authflow.user_key($1)", [.text(id)]).first
  }

  func user(identityProvider provider: String, providerID: String) throws(AccountStoreError)
    -> UserRecord?
  {
    guard !providerID.utf8.contains(0) else { return nil }
    return try users(
      where: """
        EXISTS (SELECT 1 FROM auth.identities w WHERE w.user_id = u.id AND w.provider = $1
          AND w.provider_id = $2)
        """, [.text(provider), .text(providerID)], suffix: "LIMIT 1"
    ).first
  }

  func user(phoneChange phone: String) throws(AccountStoreError) -> UserRecord? {
    guard !phone.utf8.contains(0) else { return nil }
    return try users(where: "u.phone_change = $1", [.text(phone)], suffix: "LIMIT 1").first
  }

  func user(newEmail email: String) throws(AccountStoreError) -> UserRecord? {
    guard !email.utf8.contains(0) else { return nil }
    return try users(where: "u.email_change = $1", [.text(email)], suffix: "LIMIT 1").first
  }

  func insertUser(_ user: NewUser) throws(AccountStoreError) {
    let app =
      user.appMetadata ?? ["provider": .string("email"), "providers": .array([.string("email")])]
    // GoTrue reads its token columns as text: they hold '' when no token waits, never NULL.
    try query(
      """
      INSERT INTO auth.users (instance_id, id, aud, role, email, encrypted_password,
        email_confirmed_at, confirmation_sent_at, last_sign_in_at, raw_user_meta_data,
        raw_app_meta_data, created_at, updated_at, is_anonymous, confirmation_token,
        recovery_token, email_change_token_new, email_change, email_change_token_current,
        reauthentication_token, phone_change, phone_change_token)
      VALUES ('00000000-0000-0000-0000-000000000000',
        coalesce(authflow.key($1), md5($1)::uuid), 'authenticated', $2, $3, $4,
        authflow.ts($5), authflow.ts($6), authflow.ts($7), $8::jsonb, $9::jsonb, authflow.ts($10),
        authflow.ts($10), $11, '', '', '', '', '', '', '', '')
      """, .text(user.id), .text(user.role), .optional(user.email), .text(user.passwordHash),
      .optional(user.emailConfirmedAt), .optional(user.confirmationSentAt),
      .optional(user.lastSignInAt), .text(UserRecord.encodeMetadata(user.userMetadata)),
      .text(UserRecord.encodeMetadata(app)), .integer(user.now), .bool(user.isAnonymous))
    // A Firebase uid that is no UUID keeps its name beside GoTrue's key made from it.
    if !UUIDKey.isValid(user.id) {
      try query(
        "INSERT INTO authflow.user_extras (user_id, firebase_uid) VALUES (md5($1)::uuid, $1)",
        .text(user.id))
    }
    if let identity = user.identityID, let providerID = user.identityProviderID {
      try query(
        """
        INSERT INTO auth.identities (id, provider_id, user_id, identity_data, provider,
          last_sign_in_at, created_at, updated_at)
        SELECT $1::uuid, $2, key, $4::jsonb, $5, authflow.ts($6), authflow.ts($6), authflow.ts($6)
        FROM authflow.user_key($3) AS key
        """, .text(identity), .text(providerID), .text(user.id),
        .text(UserRecord.encodeMetadata(user.identityData)), .text(user.identityProvider),
        .integer(user.now))
    } else if let identity = user.identityID {
      try insertIdentity(
        id: identity, userID: user.id, data: user.identityData, email: user.email, now: user.now)
    }
    if let phone = user.phone {
      try query(
        "UPDATE auth.users SET phone = $2, phone_confirmed_at = authflow.ts($3) WHERE id = authflow.user_key($1)",
        .text(user.id), .text(phone), .optional(user.phoneConfirmedAt))
      if let identity = user.phoneIdentityID {
        try setPhoneIdentity(
          id: identity, userID: user.id, phone: phone, confirmed: user.phoneConfirmedAt != nil,
          now: user.now)
      }
    }
  }

  /// The email identity of user `userID` (GoTrue's `provider_id` is the user's id).
  /// Makes or updates the user's phone identity (GoTrue's: the user's key as its provider id,
  /// the number and whether it is verified in its data).
  func setPhoneIdentity(id: String, userID: String, phone: String, confirmed: Bool, now: Int64)
    throws(AccountStoreError)
  {
    let data = UserRecord.phoneIdentityData(userID: userID, phone: phone, confirmed: confirmed)
    try query(
      """
      INSERT INTO auth.identities (id, provider_id, user_id, identity_data, provider,
        created_at, updated_at)
      SELECT $1::uuid, key::text, key, $3::jsonb, 'phone', authflow.ts($4), authflow.ts($4)
      FROM authflow.user_key($2) AS key
      ON CONFLICT (provider_id, provider) DO UPDATE
        SET identity_data = excluded.identity_data, updated_at = excluded.updated_at
      """, .text(id), .text(userID), .text(UserRecord.encodeMetadata(data)), .integer(now))
  }

  func insertIdentity(
    id: String, userID: String, data: [String: JSONValue], email: String?, now: Int64
  ) throws(AccountStoreError) {
    var data = data
    if let email, data["email"] == nil { data["email"] = .string(email) }
    if data["sub"] == nil { data["sub"] = .string(userID) }
    try query(
      """
      INSERT INTO auth.identities (id, provider_id, user_id, identity_data, provider,
        created_at, updated_at)
      SELECT $1::uuid, key::text, key, $3::jsonb, 'email', authflow.ts($4), authflow.ts($4)
      FROM authflow.user_key($2) AS key
      ON CONFLICT (provider_id, provider) DO NOTHING
      """, .text(id), .text(userID), .text(UserRecord.encodeMetadata(data)), .integer(now))
  }

  func updateUser(_ id: String, _ changes: [UserChange]) throws(AccountStoreError) {
    var users: [String] = []
    var userValues: [PostgresValue] = []
    var extras: [(column: String, value: PostgresValue)] = []
    func user(_ assignment: String, _ value: PostgresValue) {
      userValues.append(value)
      users.append(
        String(
          assignment.split(separator: "?", omittingEmptySubsequences: false)
            .joined(separator: "$\(userValues.count + 1)")))
    }
    for change in changes {
      switch change {
      case .email(let email):
        user("email = ?", .optional(email))
        if let email {
          try query(
            """
            UPDATE auth.identities SET identity_data = identity_data || jsonb_build_object('email', $2::text)
            WHERE user_id = authflow.user_key($1) AND provider = 'email'
            """, .text(id), .text(email))
        }
      case .passwordHash(let hash): user("encrypted_password = ?", .text(hash))
      case .emailConfirmedAt(let time): user("email_confirmed_at = authflow.ts(?)", .optional(time))
      case .confirmEmail(let time):
        user("email_confirmed_at = coalesce(email_confirmed_at, authflow.ts(?))", .integer(time))
      case .confirmationSentAt(let time):
        user("confirmation_sent_at = authflow.ts(?)", .optional(time))
      case .recoverySentAt(let time): user("recovery_sent_at = authflow.ts(?)", .optional(time))
      case .lastSignInAt(let time): user("last_sign_in_at = authflow.ts(?)", .optional(time))
      case .userMetadata(let metadata):
        user("raw_user_meta_data = ?::jsonb", .text(UserRecord.encodeMetadata(metadata)))
      case .appMetadata(let metadata):
        user("raw_app_meta_data = ?::jsonb", .text(UserRecord.encodeMetadata(metadata)))
      case .role(let role): user("role = ?", .text(role))
      case .identityID(let identity, let keepingAny):
        let existing = try first(
          "SELECT 1 FROM auth.identities WHERE user_id = authflow.user_key($1) AND provider = 'email'",
          .text(id)
        ) { _ throws(AccountStoreError) in true }
        if existing == true, !keepingAny {
          try query(
            "UPDATE auth.identities SET id = $2::uuid WHERE user_id = authflow.user_key($1) AND provider = 'email'",
            .text(id), .text(identity))
        } else if existing != true {
          let row = try first(
            "SELECT email, authflow.ms(now()) FROM auth.users WHERE id = authflow.user_key($1)",
            .text(id)
          ) { row throws(AccountStoreError) in
            (try row.optionalText(0), try row.int64(1))
          }
          try insertIdentity(
            id: identity, userID: id, data: [:], email: row?.0, now: row?.1 ?? 0)
        }
      case .identityData(let data):
        try query(
          """
          UPDATE auth.identities SET identity_data = $2::jsonb
          WHERE user_id = authflow.user_key($1) AND provider IN ('email', 'web3')
          """, .text(id), .text(UserRecord.encodeMetadata(data)))
      case .newEmail(let email): user("email_change = ?", .text(email ?? ""))
      case .emailChangeSentAt(let time):
        user("email_change_sent_at = authflow.ts(?)", .optional(time))
      case .emailChangeConfirmed(let confirmed):
        user("email_change_confirm_status = ?", .integer(confirmed ? 1 : 0))
      case .bannedUntil(let time): user("banned_until = authflow.ts(?)", .optional(time))
      case .deletedAt(let time): user("deleted_at = authflow.ts(?)", .optional(time))
      case .isAnonymous(let anonymous): user("is_anonymous = ?", .bool(anonymous))
      case .invitedAt(let time): user("invited_at = authflow.ts(?)", .optional(time))
      case .reauthenticationSentAt(let time):
        user("reauthentication_sent_at = authflow.ts(?)", .optional(time))
      case .updatedAt(let time): user("updated_at = authflow.ts(?)", .integer(time))
      case .createdAt(let time): user("created_at = authflow.ts(?)", .integer(time))
      case .phone(let phone): user("phone = ?", .optional(phone))
      case .phoneConfirmedAt(let time): user("phone_confirmed_at = authflow.ts(?)", .optional(time))
      case .phoneChange(let phone): user("phone_change = ?", .text(phone ?? ""))
      case .phoneChangeSentAt(let time):
        user("phone_change_sent_at = authflow.ts(?)", .optional(time))
      case .displayName(let name): extras.append(("display_name", .optional(name)))
      case .photoURL(let url): extras.append(("photo_url", .optional(url)))
      case .validSince(let time): extras.append(("valid_since", .optional(time)))
      case .passwordUpdatedAt(let time): extras.append(("password_updated_at", .optional(time)))
      case .initialEmail(let email): extras.append(("initial_email", .optional(email)))
      case .customClaims(let claims): extras.append(("custom_claims", .optional(claims)))
      case .emailLinkSignin(let flag): extras.append(("email_link_signin", .bool(flag)))
      case .customAuth(let flag): extras.append(("custom_auth", .bool(flag)))
      }
    }
    if !users.isEmpty {
      try query(
        "UPDATE auth.users SET \(users.joined(separator: ", ")) WHERE id = authflow.user_key($1)",
        [.text(id)] + userValues)
    }
    if !extras.isEmpty {
      let columns = extras.map(\.column)
      let marks = extras.indices.map { "$\($0 + 2)" }
      try query(
        """
        INSERT INTO authflow.user_extras (user_id, \(columns.joined(separator: ", ")))
        VALUES (authflow.user_key($1), \(marks.joined(separator: ", ")))
        ON CONFLICT (user_id) DO UPDATE SET
          \(columns.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """, [.text(id)] + extras.map(\.value))
    }
  }

  func deleteUser(_ id: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.users WHERE id = authflow.user_key($1)", .text(id))
  }

  func deleteUser(email: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.users WHERE lower(email) = lower($1)", .text(email))
  }

  func deleteBelongings(ofUser id: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.sessions WHERE user_id = authflow.user_key($1)", .text(id))
    try query("DELETE FROM authflow.codes WHERE user_id = authflow.user_key($1)", .text(id))
    try query("DELETE FROM auth.mfa_factors WHERE user_id = authflow.user_key($1)", .text(id))
  }

  func deleteAllUsers() throws(AccountStoreError) {
    try query("DELETE FROM auth.users")
  }
}

extension UserRecord {
  /// The user in `row`, read from ``PostgresConnection/userColumns``.
  init(_ row: PostgresRow) throws(AccountStoreError) {
    id = try row.text(0)
    email = try row.text(1)
    passwordHash = try row.text(2)
    emailConfirmedAt = try row.optionalInt64(3)
    confirmationSentAt = try row.optionalInt64(4)
    recoverySentAt = try row.optionalInt64(5)
    lastSignInAt = try row.optionalInt64(6)
    userMetadata = Self.decodeMetadata(try row.text(7))
    createdAt = try row.int64(8)
    updatedAt = try row.int64(9)
    role = try row.text(10)
    appMetadata = Self.decodeMetadata(try row.text(11))
    identityID = try row.optionalText(12) ?? id
    identityData = Self.decodeMetadata(try row.text(13))
    newEmail = try row.optionalText(14)
    emailChangeSentAt = try row.optionalInt64(15)
    emailChangeConfirmed = try row.bool(16)
    bannedUntil = try row.optionalInt64(17)
    deletedAt = try row.optionalInt64(18)
    displayName = try row.optionalText(19)
    validSince = try row.optionalInt64(20)
    passwordUpdatedAt = try row.optionalInt64(21)
    photoURL = try row.optionalText(22)
    isAnonymous = try row.bool(23)
    invitedAt = try row.optionalInt64(24)
    reauthenticationSentAt = try row.optionalInt64(25)
    factors = FactorRecord.factors(inUserColumn: try row.text(26))
    initialEmail = try row.optionalText(27)
    customClaims = try row.optionalText(28)
    emailLinkSignin = try row.bool(29)
    customAuth = try row.bool(30)
    identityProvider = try row.text(31)
    identityProviderID = try row.optionalText(32)
    phone = try row.optionalText(33)
    phoneConfirmedAt = try row.optionalInt64(34)
    phoneIdentityID = try row.optionalText(35)
    phoneChange = try row.optionalText(36)
    phoneChangeSentAt = try row.optionalInt64(37)
  }
}

/// UUIDs as GoTrue keys its rows by.
enum UUIDKey {
  /// Whether `text` is a UUID PostgreSQL reads (8-4-4-4-12 hexadecimal digits).
  static func isValid(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.map(\.count) == [8, 4, 4, 4, 12] else { return false }
    return parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
  }
}
