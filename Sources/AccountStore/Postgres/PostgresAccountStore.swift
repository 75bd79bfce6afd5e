#if canImport(Glibc)
  import Glibc
#endif

/// The accounts on a PostgreSQL database, in GoTrue's own `auth` schema (made when the database
/// is empty, used as it is when GoTrue migrated it) and authflow's beside it, through a small
/// pool of libpq connections.
///
/// Every write is one transaction whose reads lock the rows they find (`FOR UPDATE`, as GoTrue
/// locks a refresh token it rotates): two servers on one database then act as one, a signup
/// race on one address has one winner (the unique key) and every single-use row is used once
/// (the second reader waits for the first, then finds it spent). A transaction that lost a race
/// PostgreSQL reports is run again from the start, a bounded number of times (its body reads
/// and writes only the store, so running it again is running it once). (SERIALIZABLE was
/// tried first: on the small tables of a test server its page-level conflict detection undid
/// one concurrent refresh grant in three.)
package final class PostgresAccountStore: AccountStoring {
  package let location: StoreLocation
  package let warnings: [String] = []
  private let pool: PostgresPool

  /// The connections a store opens at most.
  static let defaultPoolSize = 8

  /// How many times a write is tried when concurrent ones keep getting in its way.
  static let attempts = 12

  /// Connects to `url` and makes what the database lacks; `newStore` fills a store whose
  /// secrets are not there yet (a new database).
  package init(
    url: PostgresURL, poolSize: Int = defaultPoolSize,
    newStore: () throws -> (Accounts<AccountStoreError>) throws(AccountStoreError) -> Void
  ) throws(EmbeddedStoreError) {
    location = .postgres(url)
    pool = PostgresPool(url: url, size: poolSize)
    do {
      try pool.withConnection { connection throws(AccountStoreError) in
        try PostgresSchemaSetup.prepare(connection)
      }
    } catch {
      throw .unreachable(url.description, error.message)
    }
    let seeded: Bool
    do {
      seeded = try pool.withConnection { connection throws(AccountStoreError) in
        try connection.secret("jwt_secret") != nil
      }
    } catch {
      throw .unreachable(url.description, error.message)
    }
    guard !seeded else { return }
    let fill: (Accounts<AccountStoreError>) throws(AccountStoreError) -> Void
    do {
      fill = try newStore()
    } catch {
      throw .unreadable(url.description, "\(error)")
    }
    do {
      // Another server may be filling it at this moment: the one whose secrets land first wins.
      try write { (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
        try accounts.execute("SELECT pg_advisory_xact_lock(\(PostgresSchemaSetup.lockKey))")
        guard try accounts.secret("jwt_secret") == nil else { return }
        try fill(accounts)
      }
    } catch {
      throw .unreachable(url.description, error.message)
    }
  }

  package func withAccounts<T, Failure: StoreFailure>(
    _ body: (Accounts<Failure>) throws(Failure) -> T
  ) throws(Failure) -> T {
    try typed(inTransaction: false, body)
  }

  package func withAccounts<T, Failure: StoreFailure>(
    as failure: Failure.Type, _ body: (Accounts<Failure>) throws -> T
  ) throws -> T {
    try lend(inTransaction: false) { connection in
      Result { try body(Accounts<Failure>(postgres: connection)) }
    }.get()
  }

  package func write<T, Failure: StoreFailure>(_ body: (Accounts<Failure>) throws(Failure) -> T)
    throws(Failure) -> T
  {
    try typed(inTransaction: true, body)
  }

  package func write<T, Failure: StoreFailure>(
    as failure: Failure.Type, _ body: (Accounts<Failure>) throws -> T
  ) throws -> T {
    try lend(inTransaction: true) { connection in
      Result { try body(Accounts<Failure>(postgres: connection)) }
    }.get()
  }

  /// `body` on a connection of the pool (in one transaction, or not), the pool's and the
  /// transaction's failures told as `Failure`.
  private func typed<T, Failure: StoreFailure>(
    inTransaction: Bool, _ body: (Accounts<Failure>) throws(Failure) -> T
  ) throws(Failure) -> T {
    let outcome: Result<T, Failure>
    do {
      outcome = try lend(inTransaction: inTransaction) { connection in
        Result { () throws(Failure) in try body(Accounts(postgres: connection)) }
      }
    } catch {
      throw Failure(store: error)
    }
    return try outcome.get()
  }

  /// `attempt`'s outcome on a connection of the pool, in one transaction when asked.
  private func lend<T, Failure: Error>(
    inTransaction: Bool, _ attempt: (PostgresConnection) -> Result<T, Failure>
  ) throws(AccountStoreError) -> Result<T, Failure> {
    try pool.withConnection { connection throws(AccountStoreError) in
      guard inTransaction else { return attempt(connection) }
      return try Self.transactionally(connection) { attempt(connection) }
    }
  }

  /// Runs `attempt` in one transaction on `connection`, its reads locking the rows they find
  /// (`FOR UPDATE`), committed when it succeeds and rolled back when it fails; again from the
  /// start (at most ``attempts`` times, waiting a little longer and at random each time, so
  /// that two rivals part) when it lost a race PostgreSQL reports (a deadlock, a key taken
  /// meanwhile).
  private static func transactionally<T, Failure: Error>(
    _ connection: PostgresConnection, _ attempt: () -> Result<T, Failure>
  ) throws(AccountStoreError) -> Result<T, Failure> {
    var tries = 0
    while true {
      tries += 1
      try connection.begin(.readCommitted)
      connection.locksReads = true
      let result = attempt()
      connection.locksReads = false
      do throws(AccountStoreError) {
        if connection.sawConflict {
          throw AccountStoreError(.conflict, "a concurrent change got in the way")
        }
        switch result {
        case .success: try connection.commit()
        case .failure: try connection.rollback()
        }
        return result
      } catch {
        if !connection.isBroken { try? connection.rollback() }
        guard error.kind == .conflict || connection.sawConflict, tries < attempts,
          !connection.isBroken
        else {
          throw error.kind == .conflict || connection.sawConflict
            ? AccountStoreError(
              .conflict, "concurrent changes kept getting in the way (\(tries) tries)")
            : error
        }
        PostgresBackoff.pause(attempt: tries)
      }
    }
  }

  package func rows(_ sql: String, columns: Int32) throws(AccountStoreError) -> [[String]] {
    try pool.withConnection { connection throws(AccountStoreError) in
      let rows = try connection.query(sql)
      var answer: [[String]] = []
      for index in 0..<rows.count {
        let row = rows[index]
        var texts: [String] = []
        for column in 0..<min(Int(columns), rows.columnCount) {
          texts.append(try row.optionalText(column) ?? "")
        }
        answer.append(texts)
      }
      return answer
    }
  }
}

/// A short random wait before a transaction runs again, longer after each conflict.
enum PostgresBackoff {
  static func pause(attempt: Int) {
    let most = min(1 << min(attempt, 6), 64) * 1_000
    usleep(UInt32.random(in: UInt32(most / 4)...UInt32(most)))
  }
}
