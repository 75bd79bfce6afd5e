import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A row of `users`.
package struct UserRecord: Sendable {
  package var id: String
  package var email: String
  package var passwordHash: String
  package var emailConfirmedAt: Int64?
  package var confirmationSentAt: Int64?
  package var recoverySentAt: Int64?
  package var lastSignInAt: Int64?
  package var userMetadata: [String: JSONValue]
  package var createdAt: Int64
  package var updatedAt: Int64
  package var role: String
  package var appMetadata: [String: JSONValue]
  package var identityID: String
  package var identityData: [String: JSONValue]
  package var newEmail: String?
  package var emailChangeSentAt: Int64?
  package var emailChangeConfirmed: Bool
  package var bannedUntil: Int64?
  package var deletedAt: Int64?
  /// The Firebase display name (schema 4).
  package var displayName: String?
  /// The Firebase photo URL.
  package var photoURL: String?
  /// Tokens issued before this time are refused (Firebase's `validSince`), in milliseconds.
  package var validSince: Int64?
  /// When the password last changed through the Firebase surface.
  package var passwordUpdatedAt: Int64?
  /// Whether the user signed in anonymously and has not yet confirmed an address (schema 5).
  package var isAnonymous: Bool
  /// When an admin last invited the user.
  package var invitedAt: Int64?
  /// When the last reauthentication nonce was sent.
  package var reauthenticationSentAt: Int64?
  /// The account's first email, once it changed through the Firebase surface (schema 6).
  package var initialEmail: String?
  /// The custom claims of the Firebase surface, as JSON text (`customAttributes`).
  package var customClaims: String?
  /// Whether the account signs in by email link (Firebase's `emailLinkSignin`).
  package var emailLinkSignin: Bool
  /// Whether the account was made or signed in by a custom token (Firebase's `customAuth`).
  package var customAuth: Bool
  /// The user's MFA factors (schema 5), oldest first.
  package var factors: [GoTrueFactor]
  /// The identity's provider (schema 8): `email`, or `web3` for a wallet's.
  package var identityProvider: String
  /// The identity's name at its provider (`web3:solana:<address>`); `nil` for the email
  /// identity, which GoTrue names by the user's id.
  package var identityProviderID: String?
  /// The phone number, E.164 digits without the `+` as GoTrue keeps it; `nil` for none.
  package var phone: String?
  /// When the phone number was confirmed.
  package var phoneConfirmedAt: Int64?
  /// The phone identity's id, when the user has a phone identity (GoTrue makes one with the
  /// number).
  package var phoneIdentityID: String?
  /// A new phone number waiting for its code (GoTrue's `phone_change`, schema 12).
  package var phoneChange: String?
  /// When the new number's code was sent.
  package var phoneChangeSentAt: Int64?

  /// `app_metadata` of a user made without one: the email provider.
  static let defaultAppMetadata = #"'{"provider":"email","providers":["email"]}'"#

  package static let columns = """
    id, email, encrypted_password, email_confirmed_at, confirmation_sent_at, recovery_sent_at,
    last_sign_in_at, user_metadata, created_at, updated_at, role, app_metadata, identity_id,
    identity_data, new_email, email_change_sent_at, email_change_confirmed, banned_until,
    deleted_at, display_name, valid_since, password_updated_at, photo_url, is_anonymous,
    invited_at, reauthentication_sent_at, \(FactorRecord.userColumn), initial_email,
    custom_claims, email_link_signin, custom_auth, identity_provider, identity_provider_id, phone,
    phone_confirmed_at, phone_identity_id, phone_change, phone_change_sent_at
    """

  /// How many columns ``columns`` names (its commas outside parentheses, plus one): a query may
  /// read more after them.
  package static let columnCount: Int32 = {
    var depth = 0
    var count: Int32 = 1
    for character in columns {
      switch character {
      case "(": depth += 1
      case ")": depth -= 1
      case "," where depth == 0: count += 1
      default: break
      }
    }
    return count
  }()

  package init(_ row: SQLiteStatement) {
    id = row.text(0)
    // An anonymous user has no email (NULL): read as the empty string GoTrue answers with.
    email = row.optionalText(1) ?? ""
    passwordHash = row.text(2)
    emailConfirmedAt = row.optionalInt(3)
    confirmationSentAt = row.optionalInt(4)
    recoverySentAt = row.optionalInt(5)
    lastSignInAt = row.optionalInt(6)
    userMetadata = Self.decodeMetadata(row.text(7))
    createdAt = row.int(8)
    updatedAt = row.int(9)
    role = row.text(10)
    appMetadata = Self.decodeMetadata(row.text(11))
    // Stores from before version 3 named the identity by the user's id.
    identityID = row.optionalText(12) ?? row.text(0)
    identityData = Self.decodeMetadata(row.text(13))
    newEmail = row.optionalText(14)
    emailChangeSentAt = row.optionalInt(15)
    emailChangeConfirmed = row.int(16) != 0
    bannedUntil = row.optionalInt(17)
    deletedAt = row.optionalInt(18)
    displayName = row.optionalText(19)
    validSince = row.optionalInt(20)
    passwordUpdatedAt = row.optionalInt(21)
    photoURL = row.optionalText(22)
    isAnonymous = row.int(23) != 0
    invitedAt = row.optionalInt(24)
    reauthenticationSentAt = row.optionalInt(25)
    factors = FactorRecord.factors(inUserColumn: row.text(26))
    initialEmail = row.optionalText(27)
    customClaims = row.optionalText(28)
    emailLinkSignin = row.int(29) != 0
    customAuth = row.int(30) != 0
    identityProvider = row.text(31)
    identityProviderID = row.optionalText(32)
    phone = row.optionalText(33)
    phoneConfirmedAt = row.optionalInt(34)
    phoneIdentityID = row.optionalText(35)
    phoneChange = row.optionalText(36)
    phoneChangeSentAt = row.optionalInt(37)
  }

  package var isConfirmed: Bool { emailConfirmedAt != nil }

  /// Whether the phone number is confirmed (GoTrue's `IsPhoneConfirmed`).
  package var isPhoneConfirmed: Bool { phoneConfirmedAt != nil }

  /// Whether the user has an email identity: every user with an address who is not deleted
  /// (an anonymous user gets one when an address is confirmed).
  package var hasEmailIdentity: Bool {
    deletedAt == nil && !isAnonymous && !email.isEmpty && identityProvider == "email"
  }

  /// The identity of another provider than email (a Web3 wallet's), as GoTrue answers it.
  package var providerIdentity: GoTrueIdentity? {
    guard deletedAt == nil, identityProvider != "email", let identityProviderID else {
      return nil
    }
    return GoTrueIdentity(
      identityId: identityID, id: identityProviderID, userId: id, identityData: identityData,
      provider: identityProvider, lastSignInAt: lastSignInAt.map(Date.init(millis:)),
      createdAt: Date(millis: createdAt), updatedAt: Date(millis: updatedAt), email: nil)
  }

  /// Whether a ban is in force at `now`.
  package func isBanned(at now: Int64) -> Bool {
    if let bannedUntil { bannedUntil > now } else { false }
  }

  /// What the email identity says about the user: GoTrue's provider claims (`sub`, `email`,
  /// `email_verified`, `phone_verified`) over the signup data kept with it.
  package var emailIdentityData: [String: JSONValue] {
    Self.identityClaims(id: id, email: email, confirmed: isConfirmed, extra: identityData)
  }

  /// GoTrue's phone-provider claims (`sub`, `phone`, `email_verified`, `phone_verified`).
  package static func phoneIdentityData(userID: String, phone: String, confirmed: Bool)
    -> [String: JSONValue]
  {
    [
      "sub": .string(userID), "phone": .string(phone), "email_verified": .bool(false),
      "phone_verified": .bool(confirmed),
    ]
  }

  /// The phone identity, as GoTrue answers it.
  package var phoneIdentity: GoTrueIdentity? {
    guard deletedAt == nil, let phone, let phoneIdentityID else { return nil }
    return GoTrueIdentity(
      identityId: phoneIdentityID, id: id, userId: id,
      identityData: Self.phoneIdentityData(
        userID: id, phone: phone, confirmed: phoneConfirmedAt != nil),
      provider: "phone", lastSignInAt: nil, createdAt: Date(millis: createdAt),
      updatedAt: Date(millis: updatedAt), email: nil)
  }

  /// GoTrue's email-provider claims for a user, over `extra` (the signup data).
  package static func identityClaims(
    id: String, email: String, confirmed: Bool, extra: [String: JSONValue]
  ) -> [String: JSONValue] {
    var claims = extra
    claims["sub"] = .string(id)
    claims["email"] = .string(email)
    claims["email_verified"] = .bool(confirmed)
    claims["phone_verified"] = .bool(false)
    return claims
  }

  /// The user as GoTrue would return it, with its one email identity.
  package var goTrueUser: GoTrueUser {
    let identity = GoTrueIdentity(
      identityId: identityID, id: id, userId: id, identityData: emailIdentityData,
      provider: "email", lastSignInAt: lastSignInAt.map(Date.init(millis:)),
      createdAt: Date(millis: createdAt), updatedAt: Date(millis: updatedAt), email: email)
    return GoTrueUser(
      id: id, role: role, email: email, emailConfirmedAt: emailConfirmedAt.map(Date.init(millis:)),
      invitedAt: invitedAt.map(Date.init(millis:)), phone: phone ?? "",
      phoneConfirmedAt: phoneConfirmedAt.map(Date.init(millis:)),
      confirmationSentAt: confirmationSentAt.map(Date.init(millis:)),
      confirmedAt: [emailConfirmedAt, phoneConfirmedAt].compactMap { $0 }.min().map(
        Date.init(millis:)),
      recoverySentAt: recoverySentAt.map(Date.init(millis:)), newEmail: newEmail,
      emailChangeSentAt: emailChangeSentAt.map(Date.init(millis:)), newPhone: phoneChange,
      phoneChangeSentAt: phoneChangeSentAt.map(Date.init(millis:)),
      reauthenticationSentAt: reauthenticationSentAt.map(Date.init(millis:)),
      lastSignInAt: lastSignInAt.map(Date.init(millis:)), appMetadata: appMetadata,
      userMetadata: userMetadata,
      identities: (hasEmailIdentity ? [identity] : providerIdentity.map { [$0] } ?? [])
        + (phoneIdentity.map { [$0] } ?? []),
      createdAt: Date(millis: createdAt), updatedAt: Date(millis: updatedAt),
      bannedUntil: bannedUntil.map(Date.init(millis:)),
      deletedAt: deletedAt.map(Date.init(millis:)),
      isAnonymous: isAnonymous, factors: factors.isEmpty ? nil : factors)
  }

  package static func encodeMetadata(_ metadata: [String: JSONValue]) -> String {
    String(decoding: JSONValue.object(metadata).jsonBytes, as: UTF8.self)
  }

  package static func decodeMetadata(_ text: String) -> [String: JSONValue] {
    JSONValue.object(parsing: Array(text.utf8)) ?? [:]
  }

  /// The metadata with its `email` claim moved to `email`, or `nil` when it has none (GoTrue
  /// and the emulator update the claim only where the signup put one).
  package func userMetadata(withEmail email: String) -> [String: JSONValue]? {
    guard userMetadata["email"] != nil else { return nil }
    var metadata = userMetadata
    metadata["email"] = .string(email)
    return metadata
  }

  /// `metadata` with `changes` merged in key by key, as GoTrue merges: a `null` deletes its key.
  package static func merging(_ changes: [String: JSONValue], into metadata: [String: JSONValue])
    -> [String: JSONValue]
  {
    var merged = metadata
    for (key, value) in changes {
      if value == .null { merged[key] = nil } else { merged[key] = value }
    }
    return merged
  }
}

extension Date {
  package init(millis: Int64) {
    self.init(timeIntervalSince1970: TimeInterval(millis) / 1_000)
  }
}
