import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// A signed-in user's own account: looking it up, changing it, deleting it.
extension FirebaseEmulation {
  /// `accounts:lookup` with an ID token.
  package func account(idToken: String) throws(IdentityToolkitError) -> FirebaseAccount {
    try read { database, now in
      try account(try verifiedUser(idToken: idToken, database, now: now).user, database, now: now)
    }
  }

  /// `accounts:delete` with an ID token; a user with a verified second factor deletes the
  /// account only from a session that proved it (``checkCredentialChange``).
  package func deleteAccount(idToken: String) throws(IdentityToolkitError) {
    try write { database, now in
      let (user, claims) = try verifiedUser(idToken: idToken, database, now: now)
      try checkCredentialChange(
        of: user, claims: claims, changesPassword: false, database, now: now)
      try database.deleteUser(user.id)
    }
  }

  /// `accounts:update` with an ID token (``update(_:_:privileged:)``): the account, and new
  /// tokens when the change moved `validSince`.
  @concurrent
  package func update(idToken: String, _ changes: FirebaseAccountChanges)
    async throws(IdentityToolkitError) -> (FirebaseAccount, FirebaseSession?)
  {
    let update = try await update(.idToken(idToken), changes, privileged: false)
    return (update.account, update.session)
  }

  /// `accounts:update` by an admin, for the account `id` (``update(_:_:privileged:)``).
  @concurrent
  package func update(id: String, _ changes: FirebaseAccountChanges)
    async throws(IdentityToolkitError) -> FirebaseAccount
  {
    try await update(.id(id), changes, privileged: true).account
  }

  /// Marks the email confirmed (as GoTrue's confirmation does) or not.
  func setEmailVerified(_ verified: Bool, of id: String, _ database: EngineAccounts, now: Int64)
    throws
  {
    let user = try database.existingUser(id: id)
    var changes: [UserChange] = [verified ? .confirmEmail(at: now) : .emailConfirmedAt(nil)]
    if user.userMetadata["email_verified"] != nil {
      var metadata = user.userMetadata
      metadata["email_verified"] = .bool(verified)
      changes.append(.userMetadata(metadata))
    }
    try database.updateUser(id, changes)
  }
}

/// A new account made by an admin.
package struct FirebaseNewAccount: Equatable, Sendable {
  /// The id to give it; a new UUID when `nil`.
  package var id: String?
  /// The email (required here).
  package var email: String?
  /// The password; none anyone knows when `nil`.
  package var password: String?
  /// The display name.
  package var displayName: String?
  /// The photo URL.
  package var photoURL: String?
  /// Whether the email is verified already.
  package var emailVerified: Bool?
  /// Whether the account starts disabled.
  package var disabled: Bool?
  /// The phone number, E.164 with its `+`.
  package var phoneNumber: String?

  /// An account with nothing set.
  package init() {}
}
