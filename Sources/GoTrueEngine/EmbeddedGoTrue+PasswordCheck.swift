import AccountStore
import AuthCrypto
import GoTrue

/// What checking a password against a user's stored hash found.
package struct PasswordCheck: Sendable {
  /// Whether the password is the user's.
  package var matches: Bool
  /// The bcrypt hash to keep in place of an imported one (``ImportedPassword``) the password
  /// matched, as Firebase rehashes an imported password at its first sign-in; `nil` when the
  /// stored hash is bcrypt's already.
  package var rehash: String?
  /// The stored hash that was checked, which the rehash replaces only if it is still there.
  package var checked: String?
}

/// The one check of a password against a stored hash, for every sign-in of either surface.
extension EmbeddedGoTrue {
  /// Checks `password` against `stored` (a user's hash; the store's decoy when `nil`): bcrypt,
  /// or an imported hash in its stored form, which a match rehashes with bcrypt at the
  /// configured cost. An imported hash the password misses, or a stored text in no known form,
  /// costs a bcrypt check of the decoy too, so a wrong password takes at least as long as
  /// against bcrypt and tells nothing of how the hash is kept.
  package func checkPassword(_ password: String, against stored: String?) -> PasswordCheck {
    guard let stored, !stored.hasPrefix("$2") else {
      return PasswordCheck(
        matches: Bcrypt.verify(password, against: stored ?? secrets.decoyHash), checked: stored)
    }
    if let imported = ImportedPassword(text: stored), imported.matches(password),
      let rehash = try? hashPassword(password)
    {
      return PasswordCheck(matches: true, rehash: rehash, checked: stored)
    }
    _ = Bcrypt.verify(password, against: secrets.decoyHash)
    return PasswordCheck(matches: false, checked: stored)
  }

  /// Keeps `check`'s bcrypt rehash as `id`'s password hash, if the hash it checked is still
  /// the user's (a change since wins).
  package func keepRehash(of check: PasswordCheck, for id: String, _ database: EngineAccounts)
    throws(GoTrueAPIError)
  {
    guard let rehash = check.rehash, let checked = check.checked,
      let current = try database.user(id: id), current.passwordHash == checked
    else { return }
    try database.updateUser(id, [.passwordHash(rehash)])
  }
}
