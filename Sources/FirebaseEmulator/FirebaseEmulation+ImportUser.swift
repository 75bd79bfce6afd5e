import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// One user of an import, checked and written as the emulator's `batchCreate` does.
extension FirebaseEmulation {
  /// Checks `user` in the emulator's order, and writes it when nothing is wrong: `localId is
  /// missing`; a tenant (this server serves none); the password; custom claims (`Invalid
  /// custom claims provided.`, `… are too large.`, `… include a reserved claim.`); provider
  /// entries (``linkedProviders(of:id:_:)``); `phone number format is
  /// invalid` (the emulator's `+` first, then E.164); a number another account holds (which
  /// the emulator would take from it); `email is invalid`; an email another account holds;
  /// second factors (`Second factor account requires email to be presented.`, `… to be
  /// verified.`, …); `localId belongs to an existing account - can not overwrite.` without
  /// `allowOverwrite`. Then what the store cannot keep refuses the user: a phone second
  /// factor. Entries of other providers (`google.com`, …) are kept as linked identities
  /// (``linkedProviders(of:id:_:)``); no account signs in with one here.
  ///
  /// An overwritten account is replaced whole, as the emulator replaces it: what the import
  /// does not give is gone.
  func importUser(
    _ user: IdentityToolkitRequest.ImportedUser,
    password: Result<String?, FirebaseImportRefusal>, _ options: ImportOptions,
    _ database: EngineAccounts, now: Int64
  ) throws {
    guard let id = user.localId, !id.isEmpty else { throw refusal("localId is missing") }
    if user.tenantId?.isEmpty == false {
      throw refusal("Tenant id in userInfo does not match the tenant id in request.")
    }
    let hash = try password.get()
    var unkept: String?
    let claims = try Self.importedClaims(user.customAttributes)
    let linked = try Self.linkedProviders(of: user, id: id, database)
    var phone: String?
    if let raw = user.phoneNumber, !raw.isEmpty {
      guard let digits = FirebasePhoneNumber.digits(raw) else {
        throw refusal("phone number format is invalid")
      }
      if let holder = try database.user(phone: digits), holder.id != id {
        throw refusal(
          "((authflow serve does not support importing duplicate phone number: \(raw)))")
      }
      phone = digits
    }
    var email: String?
    if let raw = user.email, !raw.isEmpty {
      guard let valid = try? validatedEmail(raw) else { throw refusal("email is invalid") }
      if let holder = try database.user(email: valid), holder.id != id {
        throw refusal(
          options.sanityCheck && options.oneAccountPerEmail
            ? "email exists in other account in database"
            : "((authflow serve does not support importing duplicate email: \(raw)))")
      }
      email = valid
    }
    if let factors = user.mfaInfo, !factors.isEmpty {
      try Self.checkFactors(factors, email: email, verified: user.emailVerified == true)
      unkept = unkept ?? "mfaInfo is not kept by authflow serve: it keeps TOTP factors only"
    }
    let existing = try database.user(id: id)
    if existing != nil, !options.allowOverwrite {
      throw refusal("localId belongs to an existing account - can not overwrite.")
    }
    if let unkept { throw refusal(unkept) }
    if existing != nil { try database.deleteUser(id) }
    try insertImported(
      user, id: id, email: email, phone: phone, hash: hash, claims: claims, database, now: now)
    // Each linked a millisecond after the one before, so that they list in the import's order.
    for (index, provider) in linked.enumerated() {
      try database.insertLinkedIdentity(
        provider.identity(id: engine.random.uuidString(), now: now + Int64(index)), ofUser: id)
    }
  }

  /// `user`'s entries of other providers than `password` and `phone` (which come with the
  /// email and the number), checked as the emulator checks them: `federatedId or (providerId &
  /// rawId) is required` (and the emulator's words for a `federatedId` alone), `raw id exists
  /// in other account in database`. Of two entries for one provider the later wins, in the
  /// first one's place, as the emulator's upsert keeps them.
  private static func linkedProviders(
    of user: IdentityToolkitRequest.ImportedUser, id: String, _ database: EngineAccounts
  ) throws -> [FirebaseLinkedProvider] {
    var linked: [FirebaseLinkedProvider] = []
    for entry in user.providerUserInfo ?? [] {
      let (kind, raw) = (entry.providerId ?? "", entry.rawId ?? "")
      if kind == "password" || kind == "phone" { continue }
      guard !kind.isEmpty, !raw.isEmpty else {
        throw FirebaseImportRefusal(
          entry.federatedId?.isEmpty == false
            ? "((Parsing federatedId is not implemented in Auth Emulator; please specify "
              + "providerId AND rawId as a workaround.))"
            : "federatedId or (providerId & rawId) is required")
      }
      if let holder = try database.userID(linkedProvider: kind, providerID: raw), holder != id {
        throw FirebaseImportRefusal("raw id exists in other account in database")
      }
      let provider = FirebaseLinkedProvider(imported: entry, providerID: kind, rawID: raw)
      if let index = linked.firstIndex(where: { $0.providerID == kind }) {
        linked[index] = provider
      } else {
        linked.append(provider)
      }
    }
    return linked
  }

  /// Writes an imported user that passed every check.
  private func insertImported(
    _ user: IdentityToolkitRequest.ImportedUser, id: String, email: String?, phone: String?,
    hash: String?, claims: String?, _ database: EngineAccounts, now: Int64
  ) throws {
    if let email {
      _ = try engine.insertUser(
        id: id, email: email, passwordHash: hash ?? engine.secrets.decoyHash, data: [:],
        confirmed: user.emailVerified == true, database, now: now)
    } else {
      _ = try engine.insertUserWithoutAddress(id: id, anonymous: false, database, now: now)
    }
    var changes: [UserChange] = [
      .createdAt(user.createdAt ?? now), .lastSignInAt(user.lastLoginAt), .updatedAt(now),
      .validSince(now / 1_000 * 1_000), .displayName(user.displayName),
      .photoURL(user.photoUrl), .customClaims(claims),
    ]
    if let hash { changes += [.passwordHash(hash), .passwordUpdatedAt(now)] }
    if user.disabled == true { changes.append(.bannedUntil(Self.disabledUntil)) }
    try database.updateUser(id, changes)
    if let phone { try setPhone(phone, of: try existingUser(id, database), database, now: now) }
  }

  /// `customAttributes` checked as an admin's (``FirebaseCustomClaims/parse(serialized:)``),
  /// refused in the words production answers an import with.
  private static func importedClaims(_ text: String?) throws(FirebaseImportRefusal) -> String? {
    guard let text, !text.isEmpty else { return nil }
    do {
      _ = try FirebaseCustomClaims.parse(serialized: text)
    } catch {
      switch error.code {
      case .claimsTooLarge: throw FirebaseImportRefusal("Custom claims provided are too large.")
      case .forbiddenClaim:
        throw FirebaseImportRefusal("Custom claims provided include a reserved claim.")
      default: throw FirebaseImportRefusal("Invalid custom claims provided.")
      }
    }
    return text
  }

  /// The emulator's checks of imported second factors.
  private static func checkFactors(
    _ factors: [IdentityToolkitRequest.ImportedFactor], email: String?, verified: Bool
  ) throws(FirebaseImportRefusal) {
    guard email != nil else {
      throw FirebaseImportRefusal("Second factor account requires email to be presented.")
    }
    guard verified else {
      throw FirebaseImportRefusal("Second factor account requires email to be verified.")
    }
    var ids = Set<String>()
    for id in factors.compactMap(\.mfaEnrollmentId) where !id.isEmpty {
      guard ids.insert(id).inserted else {
        throw FirebaseImportRefusal("Enrollment id already exists.")
      }
    }
    for factor in factors {
      guard let phone = factor.phoneInfo, !phone.isEmpty else {
        throw FirebaseImportRefusal("Second factor not supported.")
      }
      guard phone.hasPrefix("+") else {
        throw FirebaseImportRefusal("Phone number format is invalid")
      }
    }
  }

  private func refusal(_ message: String) -> FirebaseImportRefusal {
    FirebaseImportRefusal(message)
  }
}
