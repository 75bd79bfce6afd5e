import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// An admin's import of users (`accounts:batchCreate`, the emulator's `batchCreate`): each user
/// imported on its own, a refused one named by its index.
extension FirebaseEmulation {
  /// Imports `request`'s users. Refused whole, in the emulator's order: `MISSING_USER_ACCOUNT`;
  /// with `sanityCheck`, `DUPLICATE_EMAIL : …` (unless the project allows duplicate emails) and
  /// `DUPLICATE_RAW_ID : …` within the request; without `allowOverwrite`, `DUPLICATE_LOCAL_ID :
  /// …` within the request; then a hash algorithm this server cannot check
  /// (``FirebaseImportHashing``). Each user is then checked as the emulator checks it
  /// (``importUser(_:password:_:_:now:)``), and the refused ones are answered by index.
  ///
  /// Passwords are hashed (bcrypt for the clear ones, the stored form for imported hashes)
  /// before the store is locked.
  @concurrent
  package func importAccounts(_ request: IdentityToolkitRequest.BatchCreate)
    async throws(IdentityToolkitError) -> [(index: Int, message: String)]
  {
    let users = request.users ?? []
    guard !users.isEmpty else { throw .badRequest("MISSING_USER_ACCOUNT") }
    let options = ImportOptions(
      sanityCheck: request.sanityCheck == true, allowOverwrite: request.allowOverwrite == true,
      oneAccountPerEmail: !allowDuplicateEmails)
    try Self.checkDuplicates(users, options)
    let hashing = try FirebaseImportHashing(request)
    let passwords = users.map { user in
      Result { () throws(FirebaseImportRefusal) in try password(of: user, hashing) }
    }
    return try write { database, now in
      var refused: [(index: Int, message: String)] = []
      for (index, user) in users.enumerated() {
        do {
          try importUser(user, password: passwords[index], options, database, now: now)
        } catch let refusal as FirebaseImportRefusal {
          refused.append((index, refusal.message))
        }
      }
      return refused
    }
  }

  /// The request-wide checks of duplicates, in the emulator's words.
  private static func checkDuplicates(
    _ users: [IdentityToolkitRequest.ImportedUser], _ options: ImportOptions
  ) throws(IdentityToolkitError) {
    if options.sanityCheck {
      if options.oneAccountPerEmail {
        var emails = Set<String>()
        for email in users.compactMap(\.email) where !email.isEmpty {
          guard emails.insert(email).inserted else { throw .badRequest("DUPLICATE_EMAIL", email) }
        }
      }
      var accounts = Set<String>()
      for provider in users.flatMap({ $0.providerUserInfo ?? [] }) {
        let (id, raw) = (provider.providerId ?? "undefined", provider.rawId ?? "undefined")
        guard accounts.insert(id + ":" + raw).inserted else {
          throw .badRequest("DUPLICATE_RAW_ID", "Provider id(\(id)), Raw id(\(raw))")
        }
      }
    }
    if !options.allowOverwrite {
      var ids = Set<String>()
      for id in users.map({ $0.localId ?? "" }) {
        guard ids.insert(id).inserted else { throw .badRequest(.duplicateLocalID, id) }
      }
    }
  }

  /// What `user`'s password is stored as: none; bcrypt of a password in the clear
  /// (`rawPassword`, or the emulator's `fakeHash:salt=…:password=…`); or the form its
  /// `passwordHash` is kept in. Nothing is hashed for a user refused before its password.
  private func password(
    of user: IdentityToolkitRequest.ImportedUser, _ hashing: FirebaseImportHashing
  ) throws(FirebaseImportRefusal) -> String? {
    guard user.localId?.isEmpty == false, user.tenantId?.isEmpty != false else { return nil }
    if let hash = user.passwordHash, !hash.isEmpty {
      if let plain = FirebaseFakeHash.password(in: hash, salt: user.salt) {
        return try bcrypt(plain)
      }
      return try hashing.stored(hash: hash, salt: user.salt)
    }
    if let raw = user.rawPassword, !raw.isEmpty { return try bcrypt(raw) }
    return nil
  }

  private func bcrypt(_ password: String) throws(FirebaseImportRefusal) -> String {
    let maximum = engine.configuration.maximumPasswordBytes
    guard password.utf8.count <= maximum, !password.utf8.contains(0) else {
      throw FirebaseImportRefusal("password may not be longer than \(maximum) bytes")
    }
    guard let hash = try? engine.hashPassword(password) else {
      throw FirebaseImportRefusal("password could not be hashed")
    }
    return hash
  }
}

/// The switches of one import.
struct ImportOptions {
  /// Whether duplicates are looked for first (and an email held elsewhere is told as such).
  var sanityCheck: Bool
  /// Whether an imported user replaces the account with its id.
  var allowOverwrite: Bool
  /// Whether the project keeps one account per email.
  var oneAccountPerEmail: Bool
}
