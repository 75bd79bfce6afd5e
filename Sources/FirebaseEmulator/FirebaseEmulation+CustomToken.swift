import GoTrue
import GoTrueEngine
import IdentityToolkit

/// `accounts:signInWithCustomToken`, as the emulator answers it (`operations.ts`).
extension FirebaseEmulation {
  /// Signs in the user a custom token names, making the account when there is none (known
  /// by its id alone: no email, no password), and marks it as a custom token's
  /// (`customAuth`). `USER_DISABLED` for a disabled account. The session's provider is
  /// `custom`, and its ID tokens, refreshed ones too, carry the token's claims over the
  /// account's own. `isNewUser` says whether the account was made now.
  ///
  /// Nothing here checks who made `token`: the caller decides who may present one, since a
  /// custom token lets its maker choose the user (the HTTP surface takes them only where it
  /// takes `Bearer owner`).
  @concurrent
  package func signIn(customToken token: FirebaseCustomToken)
    async throws(IdentityToolkitError) -> (session: FirebaseSession, isNewUser: Bool)
  {
    let method = FirebaseSignInMethod.custom(token.claims)
    return try write { database, now in
      let isNewUser: Bool
      if let user = try database.user(id: token.uid) {
        // A user GoTrue's admin API soft-deleted is gone, and its id cannot be used again.
        guard user.deletedAt == nil else { throw IdentityToolkitError.badRequest(.userNotFound) }
        if user.isBanned(at: now) { throw IdentityToolkitError.badRequest(.userDisabled) }
        isNewUser = false
      } else {
        _ = try engine.insertUserWithoutAddress(
          id: token.uid, anonymous: false, database, now: now)
        isNewUser = true
      }
      try database.updateUser(
        token.uid, [.customAuth(true), .lastSignInAt(now), .updatedAt(now)])
      let user = try existingUser(token.uid, database)
      try checkIDTokenFits(user, method)
      return (try startSession(for: user, method, database, now: now), isNewUser)
    }
  }
}
