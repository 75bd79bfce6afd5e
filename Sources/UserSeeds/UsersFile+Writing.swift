import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A users file written from accounts, in either format: what reading it gives back (in
/// Firebase's, what that format has room for). Hashes only, never a password.
extension UsersFile {
  /// The file's bytes: indented JSON with sorted keys and a final newline.
  package static func encode(_ accounts: [SeedAccount], format: Format) -> [UInt8] {
    let value: JSONValue =
      switch format {
      case .authflow: .object(["users": .array(accounts.map(authflowEntry))])
      case .firebase:
        .object(["kind": .string(firebaseKind), "users": .array(accounts.map(firebaseEntry))])
      }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding a JSONValue cannot fail: every case maps to plain JSON.
    let bytes = (try? encoder.encode(value)).map(Array.init) ?? Array("{}".utf8)
    return bytes + [UInt8(ascii: "\n")]
  }

  private static func authflowEntry(_ account: SeedAccount) -> JSONValue {
    var entry: [String: JSONValue] = ["id": .string(account.id)]
    if let email = account.email {
      entry["email"] = .string(email)
      entry["email_confirm"] = .bool(account.emailConfirmed)
    }
    if let phone = account.phone {
      entry["phone"] = .string("+" + phone)
      entry["phone_confirm"] = .bool(account.phoneConfirmed)
    }
    if account.isAnonymous { entry["anonymous"] = .bool(true) }
    if case .bcrypt(let hash) = account.password { entry["password_hash"] = .string(hash) }
    if !account.userMetadata.isEmpty { entry["user_metadata"] = .object(account.userMetadata) }
    if !account.appMetadata.isEmpty { entry["app_metadata"] = .object(account.appMetadata) }
    if account.role != "authenticated" { entry["role"] = .string(account.role) }
    if let name = account.displayName { entry["display_name"] = .string(name) }
    if let photo = account.photoURL { entry["photo_url"] = .string(photo) }
    if let claims = account.customClaims, let object = claimsObject(claims) {
      entry["custom_claims"] = .object(object)
    }
    if account.disabled { entry["disabled"] = .bool(true) }
    if let created = account.createdAt {
      entry["created_at"] = .string(
        GoTrueCoding.timestamp(Date(timeIntervalSince1970: Double(created) / 1_000)))
    }
    return .object(entry)
  }

  private static func firebaseEntry(_ account: SeedAccount) -> JSONValue {
    var entry: [String: JSONValue] = [
      "localId": .string(account.id), "emailVerified": .bool(account.emailConfirmed),
      "disabled": .bool(account.disabled),
    ]
    if let email = account.email {
      entry["email"] = .string(email)
      var provider: [String: JSONValue] = [
        "providerId": .string("password"), "email": .string(email),
        "federatedId": .string(email), "rawId": .string(email),
      ]
      if let name = account.displayName { provider["displayName"] = .string(name) }
      if let photo = account.photoURL { provider["photoUrl"] = .string(photo) }
      entry["providerUserInfo"] = .array([.object(provider)])
    }
    // Firebase keeps only numbers that sign in: an unconfirmed one has no place here.
    if let phone = account.phone.map({ "+" + $0 }), account.phoneConfirmed {
      entry["phoneNumber"] = .string(phone)
      let provider: JSONValue = .object([
        "providerId": .string("phone"), "phoneNumber": .string(phone), "rawId": .string(phone),
      ])
      entry["providerUserInfo"] = .array((entry["providerUserInfo"]?.arrayValue ?? []) + [provider])
    }
    if case .bcrypt(let hash) = account.password { entry["passwordHash"] = .string(hash) }
    if let name = account.displayName { entry["displayName"] = .string(name) }
    if let photo = account.photoURL { entry["photoUrl"] = .string(photo) }
    if let claims = account.customClaims { entry["customAttributes"] = .string(claims) }
    if let created = account.createdAt { entry["createdAt"] = .string("\(created)") }
    if let signedIn = account.lastSignInAt { entry["lastLoginAt"] = .string("\(signedIn)") }
    return .object(entry)
  }

  /// The object of custom claims kept as `text`, when it is one.
  private static func claimsObject(_ text: String) -> [String: JSONValue]? {
    (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.objectValue
  }
}
