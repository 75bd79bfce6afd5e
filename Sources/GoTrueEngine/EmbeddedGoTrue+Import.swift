import GoTrue

extension EmbeddedGoTrue {
  /// Adds accounts whose passwords are already bcrypt-hashed, as an import from another
  /// GoTrue would; emails that exist are skipped. Returns how many were added.
  @discardableResult
  package func importAccounts(
    emails: some Sequence<String>, passwordHash: String, confirmed: Bool
  ) throws(GoTrueFailure) -> Int {
    let emails = Array(emails)
    return try answer(spending: nil) { database, now in
      var added = 0
      for email in emails {
        try database.run(
          """
          INSERT OR IGNORE INTO users (id, email, encrypted_password, email_confirmed_at,
            created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?)
          """, .text(random.uuidString()), .text(email), .text(passwordHash),
          confirmed ? .integer(now) : .null, .integer(now), .integer(now))
        added += database.changes
      }
      return added
    }
  }
}
