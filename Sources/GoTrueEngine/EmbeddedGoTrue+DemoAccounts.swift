import AuthCrypto
import GoTrue

extension EmbeddedGoTrue {
  /// Puts the demo accounts back as a new store has them: ``DemoAccounts/confirmed`` and
  /// ``DemoAccounts/unconfirmed`` with their published passwords, confirmed and waiting as they
  /// start. Each is a new account: whatever one of those addresses had (sessions, codes,
  /// factors, metadata, a changed password) is gone with it. Every other account stays as it is.
  public func restoreDemoAccounts() throws(GoTrueFailure) {
    let cost = configuration.hashCost
    let prehashed = DemoAccounts.prehashed[cost]
    // Hashed outside the store's lock when no hash was made for this cost in advance.
    let accounts = [
      (DemoAccounts.confirmed, true, prehashed?.confirmed),
      (DemoAccounts.unconfirmed, false, prehashed?.unconfirmed),
    ]
    var hashes: [String] = []
    for (account, _, made) in accounts {
      if let made {
        hashes.append(made)
        continue
      }
      do {
        hashes.append(try Bcrypt.hash(account.password, cost: cost, random: random))
      } catch {
        throw .api(
          GoTrueAPIError(status: 500, code: .unexpectedFailure, message: "\(error)"))
      }
    }
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      for ((account, confirmed, _), hash) in zip(accounts, hashes) {
        try database.deleteUser(email: account.email)
        try DemoAccounts.insert(
          id: random.uuidString(), identity: random.uuidString(), email: account.email,
          hash: hash, confirmed: confirmed, into: database, now: now)
      }
    }
  }
}
