import GoTrue

/// authflow's format: `{"users": [entry, …]}`, each entry named as GoTrue's admin API names a
/// user's attributes (`id`, `email`, `phone`, `password` or `password_hash`, `email_confirm`,
/// `phone_confirm`, `user_metadata`, `app_metadata`, `role`), with what the Firebase surface
/// keeps besides.
extension UsersFile {
  /// The fields of an entry, in the order messages list them.
  static let authflowFields = [
    "id", "email", "password", "password_hash", "encrypted_password", "email_confirm", "phone",
    "phone_confirm", "user_metadata", "app_metadata", "role", "display_name", "photo_url",
    "custom_claims",
    "disabled", "anonymous", "created_at",
  ]

  static func authflowAccounts(_ top: [String: JSONValue], file: String) throws(UsersFileError)
    -> [SeedAccount]
  {
    try accounts(
      top, file: file, known: ["users"], shape: "the file is {\"users\": [...]}", idField: "id",
      read: authflowAccount)
  }

  private static func authflowAccount(_ reader: inout EntryReader) throws(UsersFileError)
    -> SeedAccount
  {
    let id = try SeedFields.id(try reader.string("id"), reader, field: "id")
    let anonymous = try reader.bool("anonymous") ?? false
    let email = try reader.string("email")
    let phone = try reader.string("phone")
    if anonymous, email != nil || phone != nil {
      let field = email != nil ? "email" : "phone"
      throw reader.fail("anonymous", "an anonymous account has no \(field); remove one of them")
    }
    guard anonymous || email != nil || phone != nil else {
      throw reader.fail(
        "email", "is missing; give an address, a phone number, or \"anonymous\": true")
    }
    var account = SeedAccount(
      id: id,
      email: try email.map { text throws(UsersFileError) in
        try SeedFields.email(text, reader, field: "email")
      })
    account.password = try authflowPassword(&reader)
    if anonymous, account.password != .none {
      throw reader.fail("password", "an anonymous account has no password; remove it")
    }
    account.phone = try phone.map { text throws(UsersFileError) in
      try SeedFields.phone(text, reader, field: "phone")
    }
    account.emailConfirmed = try reader.bool("email_confirm") ?? false
    account.phoneConfirmed = try reader.bool("phone_confirm") ?? false
    if account.phoneConfirmed, account.phone == nil {
      throw reader.fail("phone_confirm", "confirms no phone number; give \"phone\" too")
    }
    account.userMetadata = try reader.object("user_metadata") ?? [:]
    account.appMetadata = try reader.object("app_metadata") ?? [:]
    if let role = try reader.string("role") {
      guard !role.isEmpty, role.count <= 64 else {
        throw reader.fail("role", "must be a role name such as authenticated")
      }
      account.role = role
    }
    account.displayName = try reader.string("display_name")
    account.photoURL = try reader.string("photo_url")
    if let claims = try reader.object("custom_claims") {
      let text = String(decoding: JSONValue.object(claims).jsonBytes, as: UTF8.self)
      account.customClaims = try SeedFields.claims(
        serialized: text, reader, field: "custom_claims")
    }
    account.disabled = try reader.bool("disabled") ?? false
    if let created = try reader.string("created_at") {
      guard let date = GoTrueCoding.parseTimestamp(created), date.timeIntervalSince1970 >= 0 else {
        throw reader.fail("created_at", "must be a time such as 2025-01-01T00:00:00Z")
      }
      account.createdAt = Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }
    try reader.finish(known: authflowFields)
    return account
  }

  /// `password`, or a bcrypt `password_hash` (`encrypted_password`, as GoTrue's `auth.users`
  /// names it), or neither; never two.
  private static func authflowPassword(_ reader: inout EntryReader) throws(UsersFileError)
    -> SeedAccount.Password
  {
    let given = ["password", "password_hash", "encrypted_password"].filter { reader.has($0) }
    if given.count > 1 {
      throw reader.fail(given[1], "is given beside \(given[0]); give only one")
    }
    if let password = try reader.string("password") {
      return try SeedFields.plain(password, reader, field: "password")
    }
    for field in ["password_hash", "encrypted_password"] {
      if let hash = try reader.string(field) {
        return try SeedFields.bcrypt(hash, reader, field: field)
      }
    }
    return .none
  }
}
