import AccountStore
import AuthCrypto
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Signing up and in with a phone number, as GoTrue does with its phone provider on
/// (`api/signup.go`, `token.go`, `verify.go`): a password, and codes texted to the number,
/// which go to the engine's SMS outbox.
extension EmbeddedGoTrue {
  /// `POST /signup` with a phone and a password: a new user waiting for the code texted to the
  /// number (signed in at once with SMS autoconfirm); for a number waiting for its
  /// confirmation, its code again; for a confirmed one, GoTrue's fake user (422 with
  /// autoconfirm). As for an email, a number waiting for its code is not signed in by a
  /// signup with autoconfirm on: that would hand the account to whoever signs up with it.
  @concurrent
  package func signUp(phone rawPhone: String, password: String, data: [String: JSONValue])
    async throws(GoTrueFailure) -> GoTrueSignUpResponse
  {
    try checkSignupsAllowed()
    try checkPasswordStrength(password)
    guard configuration.phoneProvider else {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .phoneProviderDisabled, message: "Phone signups are disabled"))
    }
    let phone = try PhoneRules.normalized(rawPhone)
    let date = clock.now
    // Counted before any hashing, so a flood over the limit costs no bcrypt; and every signup
    // spends one hash, whether or not the number is taken.
    try answer(spending: \.email) { _, _ throws(GoTrueAPIError) in }
    let hash = try hashPassword(password)
    try checkCancellation()
    let provider: [String: JSONValue] = ["provider": .string("phone")]
    let (response, texts) = try answer(spending: nil) {
      database, now throws(GoTrueAPIError) -> (GoTrueSignUpResponse, [PendingSMS]) in
      if let existing = try database.user(phone: phone) {
        if existing.isPhoneConfirmed {
          try audit(database, .user(existing), .userRepeatedSignUp, traits: provider, now: now)
        }
        if existing.isPhoneConfirmed || configuration.smsAutoconfirm {
          if configuration.smsAutoconfirm || configuration.autoconfirm {
            throw GoTrueAPIError(
              status: 422, code: .userAlreadyExists, message: "User already registered")
          }
          return (
            .user(Self.repeatedSignUp(phone: phone, data: data, random: random, now: now)), []
          )
        }
        try audit(database, .user(existing), .userConfirmationRequested, traits: provider, now: now)
        let text = try textCode(.sms, for: existing, to: phone, database, now: now)
        return (.user(try database.existingUser(id: existing.id).goTrueUser), [text])
      }
      let confirmed = configuration.smsAutoconfirm
      let user = try insertPhoneUser(
        phone, passwordHash: hash, data: data, confirmed: confirmed, signsIn: confirmed,
        database, now: now)
      if confirmed {
        var signedUp = provider
        signedUp["channel"] = .string("sms")
        try audit(database, .user(user), .userSignedUp, traits: signedUp, now: now)
        try audit(database, .user(user), .login, traits: provider, now: now)
        return (
          .session(try createSession(for: user, method: .password, in: database, now: now)), []
        )
      }
      try audit(database, .user(user), .userConfirmationRequested, traits: provider, now: now)
      let text = try textCode(.sms, for: user, to: phone, database, now: now)
      return (.user(try database.existingUser(id: user.id).goTrueUser), [text])
    }
    deliver(texts, at: date)
    if case .session(let session) = response {
      return .session(try await withHookClaims(session, method: "password", isNew: true))
    }
    return response
  }

  /// GoTrue's answer to a signup with a confirmed number (`sanitizeUser`): a user that tells
  /// nothing, with a new id and no identities.
  private static func repeatedSignUp(
    phone: String, data: [String: JSONValue], random: any RandomSource, now: Int64
  ) -> GoTrueUser {
    GoTrueUser(
      id: random.uuidString(), role: "", email: "", phone: phone,
      confirmationSentAt: Date(millis: now),
      appMetadata: ["provider": .string("phone"), "providers": .array([.string("phone")])],
      userMetadata: data, identities: [], createdAt: Date(millis: now),
      updatedAt: Date(millis: now))
  }

  /// Adds a user with the phone number `phone` and its phone identity, and no email. As for an
  /// email, `user_metadata` starts as the identity's claims (`sub`, `email_verified`,
  /// `phone_verified`) over the signup `data`.
  package func insertPhoneUser(
    _ phone: String, passwordHash: String, data: [String: JSONValue], confirmed: Bool,
    signsIn: Bool = false, _ database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) -> UserRecord {
    let id = random.uuidString()
    var metadata = data
    metadata["sub"] = .string(id)
    metadata["email_verified"] = .bool(false)
    metadata["phone_verified"] = .bool(false)
    var new = NewUser(id: id, email: nil, passwordHash: passwordHash, identityID: nil, now: now)
    new.userMetadata = metadata
    new.appMetadata = ["provider": .string("phone"), "providers": .array([.string("phone")])]
    new.phone = phone
    new.phoneConfirmedAt = confirmed ? now : nil
    new.phoneIdentityID = random.uuidString()
    new.lastSignInAt = signsIn ? now : nil
    let user = try database.insertUser(new)
    try checkTokenFits(user)
    return user
  }

  /// The number a `PUT /user` changes to, checked as GoTrue checks it (with its `channel`);
  /// `nil` for none, or with the phone provider off (then the number is refused later, in
  /// the order the engine always had).
  func phoneToChange(_ attributes: GoTrueUserAttributes) throws(GoTrueFailure)
    -> String?
  {
    guard configuration.phoneProvider, let raw = attributes.phone, !raw.isEmpty else {
      return nil
    }
    let phone = try PhoneRules.normalized(raw)
    if let channel = attributes.channel, !channel.isEmpty, channel != "sms" {
      throw .api(PhoneRules.invalidChannel)
    }
    return phone
  }

  /// `POST /token?grant_type=password` with a phone: the email grant's rules, the number
  /// looked up as GoTrue formats it (no check), and `phone_not_confirmed` for a number waiting
  /// for its code.
  @concurrent
  package func signIn(phone rawPhone: String, password: String) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    let phone = PhoneRules.formatted(rawPhone)
    return try await signIn(password: password, provider: "phone") {
      database throws(GoTrueAPIError) in
      phone.isEmpty ? nil : try database.user(phone: phone)
    }
  }

  /// `POST /verify` with a phone, a texted code and `type` `sms` (the number confirmed, or
  /// signed in) or `phone_change` (the number waiting becomes the user's): spends the code and
  /// signs in. A wrong, an expired and a used code get distinct codes, as for email.
  @concurrent
  package func verifyPhone(_ type: PhoneVerification, phone rawPhone: String, code: String)
    async throws(GoTrueFailure) -> GoTrueSession
  {
    let phone = try PhoneRules.normalized(rawPhone)
    let kind = type.codeKind
    let session = try answer(spending: \.verify, for: "phone:\(phone)") {
      database, now throws(GoTrueAPIError) -> GoTrueSession in
      guard PhoneRules.isWellFormedCode(code) else { throw Self.invalidCode }
      let owner =
        type == .sms ? try database.user(phone: phone) : try database.user(phoneChange: phone)
      guard let user = owner else { throw Self.invalidCode }
      if user.isBanned(at: now) {
        throw GoTrueAPIError(status: 403, code: .userBanned, message: "User is banned")
      }
      guard
        let token = try database.code(
          ofUser: user.id, kind: kind, codeHash: codeHash(kind, userID: user.id, code: code))
      else { throw Self.invalidCode }
      if token.usedAt != nil {
        throw GoTrueAPIError(
          status: 403, code: .otpAlreadyUsed, message: Self.invalidCode.message)
      }
      if token.expiresAt <= now {
        throw GoTrueAPIError(status: 403, code: .otpExpired, message: Self.invalidCode.message)
      }
      try database.markCodeUsed(token.id, at: now)
      let proved: UserRecord
      switch type {
      case .sms:
        try audit(
          database, .user(user), .userSignedUp, traits: ["provider": .string("phone")], now: now)
        proved = try confirmPhone(phone, of: user, database, now: now)
      case .phoneChange:
        try audit(database, .user(user), .userModified, now: now)
        if let holder = try database.user(phone: phone), holder.id != user.id {
          throw PhoneRules.taken
        }
        proved = try confirmPhone(phone, of: user, database, now: now)
      }
      return try createSession(for: proved, method: .otp, in: database, now: now)
    }
    return try await withHookClaims(session, method: "otp", isNew: true)
  }

  /// Makes `phone` the user's confirmed number (GoTrue's `ConfirmPhone`, or
  /// `ConfirmPhoneChange` for the number waiting), with its phone identity, and the user
  /// permanent if anonymous; answers the user as they are then.
  func confirmPhone(_ phone: String, of user: UserRecord, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError) -> UserRecord
  {
    var changes: [UserChange] = [
      .phone(phone), .phoneConfirmedAt(now), .lastSignInAt(now), .updatedAt(now),
      .appMetadata(Self.withPhoneProvider(user.appMetadata)),
    ]
    if user.phoneChange == phone { changes.append(.phoneChange(nil)) }
    if user.isAnonymous { changes.append(.isAnonymous(false)) }
    try database.updateUser(user.id, changes)
    try database.setPhoneIdentity(
      id: user.phoneIdentityID ?? random.uuidString(), userID: user.id, phone: phone,
      confirmed: true, now: now)
    return try database.existingUser(id: user.id)
  }

  /// `app_metadata` with `phone` among its providers (GoTrue's `UpdateAppMetaDataProviders`
  /// once a phone identity is added), and as the provider of a user who had none.
  static func withPhoneProvider(_ metadata: [String: JSONValue]) -> [String: JSONValue] {
    var metadata = metadata
    var providers = metadata["providers"]?.arrayValue ?? []
    if !providers.contains(.string("phone")) { providers.append(.string("phone")) }
    metadata["providers"] = .array(providers)
    if metadata["provider"] == nil { metadata["provider"] = .string("phone") }
    return metadata
  }
}
