import FirebaseEmulator
import GoTrue

/// The Firebase Auth emulator's `accounts.json` (what `firebase emulators:export` writes: the
/// answer of `accounts:batchGet`, `{"kind": …, "users": [...]}`), read as the emulator's
/// `accounts:batchCreate` reads it on import. The emulator keeps passwords in the clear
/// (`passwordHash` is `fakeHash:salt=…:password=…`); they are hashed with bcrypt here.
extension UsersFile {
  /// The emulator's download kind.
  static let firebaseKind = "identitytoolkit#DownloadAccountResponse"

  /// The fields of a user, in the order messages list them.
  static let firebaseFields = [
    "localId", "email", "emailVerified", "phoneNumber", "displayName", "photoUrl",
    "passwordHash", "salt",
    "rawPassword", "disabled", "createdAt", "lastLoginAt", "customAttributes",
    "providerUserInfo", "passwordUpdatedAt", "validSince", "lastRefreshAt", "initialEmail",
    "emailLinkSignin", "customAuth", "tenantId",
  ]

  static func firebaseAccounts(_ top: [String: JSONValue], file: String) throws(UsersFileError)
    -> [SeedAccount]
  {
    if let kind = top["kind"], kind != .string(firebaseKind) {
      throw UsersFileError(
        file: file, field: "kind", problem: "must be \"\(firebaseKind)\", as accounts.json has")
    }
    return try accounts(
      top, file: file, known: ["kind", "users", "nextPageToken"],
      shape: "accounts.json is {\"kind\": …, \"users\": [...]}", idField: "localId",
      read: firebaseAccount)
  }

  private static func firebaseAccount(_ reader: inout EntryReader) throws(UsersFileError)
    -> SeedAccount
  {
    let id = try SeedFields.id(try reader.string("localId"), reader, field: "localId")
    var account = SeedAccount(
      id: id,
      email: try reader.string("email").map { text throws(UsersFileError) in
        try SeedFields.email(text, reader, field: "email")
      })
    if let number = try reader.string("phoneNumber"), !number.isEmpty {
      guard number.hasPrefix("+") else {
        throw reader.fail("phoneNumber", "\(number.prefix(40)) is not E.164: it starts with +")
      }
      account.phone = try SeedFields.phone(number, reader, field: "phoneNumber")
      // A number on a Firebase account is a way to sign in: verified by its code.
      account.phoneConfirmed = true
    }
    account.password = try firebasePassword(&reader)
    account.emailConfirmed = try reader.bool("emailVerified") ?? false
    account.displayName = try reader.string("displayName")
    account.photoURL = try reader.string("photoUrl")
    account.disabled = try reader.bool("disabled") ?? false
    account.createdAt = try reader.millis("createdAt")
    account.lastSignInAt = try reader.millis("lastLoginAt")
    if let claims = try reader.string("customAttributes"), !claims.isEmpty {
      account.customClaims = try SeedFields.claims(
        serialized: claims, reader, field: "customAttributes")
    }
    try checkProviders(&reader)
    if reader.has("mfaInfo") {
      throw reader.fail(
        "mfaInfo",
        "is not kept: authflow keeps TOTP factors, enrolled by the user; remove it to import")
    }
    // What the emulator sets again on import, or keeps about sign-ins, is not read.
    for field in [
      "passwordUpdatedAt", "validSince", "lastRefreshAt", "initialEmail", "emailLinkSignin",
      "customAuth", "tenantId",
    ] {
      _ = reader.value(field)
    }
    try reader.finish(known: firebaseFields)
    return account
  }

  /// `rawPassword`, or `passwordHash`: the emulator's `fakeHash:salt=S:password=P` (the
  /// password P, in the clear) or a bcrypt hash (authflow's export in this format).
  private static func firebasePassword(_ reader: inout EntryReader) throws(UsersFileError)
    -> SeedAccount.Password
  {
    let salt = try reader.string("salt")
    if let raw = try reader.string("rawPassword") {
      if reader.has("passwordHash") {
        throw reader.fail("rawPassword", "is given beside passwordHash; give only one")
      }
      return try SeedFields.plain(raw, reader, field: "rawPassword")
    }
    guard let hash = try reader.string("passwordHash"), !hash.isEmpty else { return .none }
    if hash.hasPrefix("$2") { return try SeedFields.bcrypt(hash, reader, field: "passwordHash") }
    guard FirebaseFakeHash.isFake(hash) else {
      throw reader.fail(
        "passwordHash",
        "is neither the emulator's fakeHash:salt=…:password=… nor a bcrypt hash; production "
          + "exports' scrypt hashes cannot be checked here: give rawPassword instead")
    }
    guard let password = FirebaseFakeHash.password(in: hash, salt: salt) else {
      throw reader.fail("passwordHash", "is not fakeHash:salt=SALT:password=PASSWORD")
    }
    return try SeedFields.plain(password, reader, field: "passwordHash")
  }

  /// Only the `password` provider (the emulator's for an email and password) and `phone` (the
  /// entry of `phoneNumber`): another one is a way to sign in the store cannot keep.
  private static func checkProviders(_ reader: inout EntryReader) throws(UsersFileError) {
    guard let providers = reader.value("providerUserInfo") else { return }
    guard case .array(let entries) = providers else {
      throw reader.fail("providerUserInfo", "must be an array")
    }
    for (index, entry) in entries.enumerated() {
      let provider = entry.objectValue?["providerId"]?.stringValue ?? ""
      guard provider == "password" || provider == "phone" else {
        throw reader.fail(
          "providerUserInfo[\(index)]",
          "provider \(provider.prefix(40)) is not kept: authflow's accounts sign in with an "
            + "email and password or a phone number; remove the entry to import the account "
            + "without it")
      }
    }
  }
}
