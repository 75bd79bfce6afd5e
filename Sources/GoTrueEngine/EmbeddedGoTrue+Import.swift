import AccountStore
import GoTrue

extension EmbeddedGoTrue {
  /// Adds accounts whose passwords are already bcrypt-hashed, as an import from another
  /// GoTrue would; emails that exist are skipped. Returns how many were added.
  @discardableResult
  package func importAccounts(
    emails: some Sequence<String>, passwordHash: String, confirmed: Bool
  ) throws(GoTrueFailure) -> Int {
    let emails = Array(emails)
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      var added = 0
      for email in emails {
        var user = NewUser(
          id: random.uuidString(), email: email, passwordHash: passwordHash, identityID: nil,
          now: now)
        user.emailConfirmedAt = confirmed ? now : nil
        if try database.insertUserUnlessTaken(user) { added += 1 }
      }
      return added
    }
  }
}
