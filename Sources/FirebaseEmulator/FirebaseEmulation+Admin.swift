import GoTrue
import GoTrueEngine
import IdentityToolkit

/// What an admin (`Bearer owner`, the Admin SDKs) does to any account.
extension FirebaseEmulation {
  /// `accounts` by an admin (``signUp(_:privileged:)``): an account with a chosen id
  /// (`DUPLICATE_LOCAL_ID` when taken) or a new UUID, an email or none, a password or none
  /// anyone knows, a phone number or none, its profile, verified and disabled as asked; signed
  /// in by nobody, though its `lastLoginAt` is now, as in the emulator.
  @concurrent
  package func create(_ new: FirebaseNewAccount) async throws(IdentityToolkitError)
    -> FirebaseAccount
  {
    var request = FirebaseSignUpRequest()
    (request.localId, request.email, request.password) = (new.id, new.email, new.password)
    (request.displayName, request.photoUrl) = (new.displayName, new.photoURL)
    (request.emailVerified, request.disabled) = (new.emailVerified, new.disabled)
    request.phoneNumber = new.phoneNumber
    return try await signUp(request, privileged: true).account
  }

  /// `accounts:delete` by an admin.
  package func delete(id: String) throws(IdentityToolkitError) {
    try write { database, _ in
      let user = try existingUser(id, database)
      try database.deleteUser(user.id)
    }
  }

  /// `accounts:batchDelete`: deletes the accounts among `ids` that exist; without `force`,
  /// only disabled ones. Answers the emulator's `NOT_DISABLED` for the others, by index.
  package func delete(ids: [String], force: Bool) throws(IdentityToolkitError)
    -> [(index: Int, id: String, message: String)]
  {
    guard !ids.isEmpty, ids.count <= 1_000 else { throw .badRequest(.localIDListExceedsLimit) }
    return try write { database, now in
      var refused: [(index: Int, id: String, message: String)] = []
      for (index, id) in ids.enumerated() {
        guard let user = try database.user(id: id), user.deletedAt == nil else { continue }
        if !force, !user.isBanned(at: now) {
          refused.append((index, id, "NOT_DISABLED : Disable the account before batch deletion."))
        } else {
          try database.deleteUser(id)
        }
      }
      return refused
    }
  }

  /// `DELETE /emulator/v1/projects/{id}/accounts`: every account of the store.
  package func deleteAllAccounts() throws(IdentityToolkitError) {
    try write { database, _ in try database.deleteAllUsers() }
  }
}
