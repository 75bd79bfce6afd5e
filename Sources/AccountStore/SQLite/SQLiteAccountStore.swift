import PrivateFiles

/// The embedded store: the accounts in one SQLite file (or in memory), shared safely by several
/// processes. Writes take `BEGIN IMMEDIATE` transactions and wait on SQLite's busy timeout.
package final class SQLiteAccountStore: AccountStoring {
  /// Where the accounts live.
  package let location: StoreLocation
  /// What opening the store changed to keep it safe (permissions made private), for the user.
  package let warnings: [String]
  private let connection: DatabaseLock

  /// Opens the store at `location`, creating it or bringing it to the current schema. A new
  /// store is filled by what `newStore` gives, in the transaction that creates it; `newStore`
  /// is called before that transaction, so slow work (hashing) holds no lock.
  package init(
    location: StoreLocation,
    newStore: () throws -> (Accounts<AccountStoreError>) throws(AccountStoreError) -> Void
  ) throws(EmbeddedStoreError) {
    self.location = location
    let opened = try StoreOpener.open(location)
    warnings = opened.warnings
    do {
      try Self.migrate(opened.database, newStore: newStore)
    } catch let error as EmbeddedStoreError {
      throw error
    } catch let error as SQLiteError {
      throw .unreadable(location.description, error.message)
    } catch let error as AccountStoreError {
      throw .unreadable(location.description, error.message)
    } catch {
      throw .unreadable(location.description, "\(error)")
    }
    connection = DatabaseLock(opened.database)
  }

  /// Runs `body` with the store, outside any transaction (each statement its own).
  package func withAccounts<T, Failure: StoreFailure>(
    _ body: (Accounts<Failure>) throws(Failure) -> T
  ) throws(Failure) -> T {
    try connection.withLock { database throws(Failure) in try body(Accounts(database)) }
  }

  /// ``withAccounts(_:)`` for a body that throws errors of other kinds too.
  package func withAccounts<T, Failure: StoreFailure>(
    as failure: Failure.Type, _ body: (Accounts<Failure>) throws -> T
  ) throws -> T {
    try connection.withLock { database in try body(Accounts(database)) }
  }

  /// Runs `body` in one write transaction, rolled back when it throws.
  package func write<T, Failure: StoreFailure>(_ body: (Accounts<Failure>) throws(Failure) -> T)
    throws(Failure) -> T
  {
    try connection.withLock { database throws(Failure) in
      try database.transaction(failing: Failure.self) { () throws(Failure) in
        try body(Accounts(database))
      }
    }
  }

  /// ``write(_:)`` for a body that throws errors of other kinds too.
  package func write<T, Failure: StoreFailure>(
    as failure: Failure.Type, _ body: (Accounts<Failure>) throws -> T
  ) throws -> T {
    try connection.withLock { database in
      try database.transaction { try body(Accounts(database)) }
    }
  }

  /// The rows of `sql` as text, `columns` to a row (`NULL` as the empty text): for tests and
  /// diagnostics that look at what the store holds.
  package func rows(_ sql: String, columns: Int32) throws(AccountStoreError) -> [[String]] {
    try withAccounts { (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
      try accounts.query(sql) { row in (0..<columns).map { row.text($0) } }
    }
  }

  /// Brings `database` to the current schema, filling a new store with `newStore`'s rows.
  private static func migrate(
    _ database: SQLiteDatabase,
    newStore: () throws -> (Accounts<AccountStoreError>) throws(AccountStoreError) -> Void
  ) throws {
    let version = try userVersion(database)
    guard version < Schema.currentVersion else {
      if version > Schema.currentVersion {
        throw EmbeddedStoreError.newerSchema(found: version, supported: Schema.currentVersion)
      }
      return
    }
    let fill = version == 0 ? try newStore() : nil
    // Some versions rebuild a table (create the new one, copy, drop the old, rename), which with
    // foreign keys on would delete every row that refers to the old one. SQLite's procedure:
    // foreign keys off outside the transaction, checked before it commits, on again after.
    try database.execute("PRAGMA foreign_keys = OFF")
    defer { try? database.execute("PRAGMA foreign_keys = ON") }
    try database.transaction {
      // Another process may have migrated while this one was hashing.
      let current = try userVersion(database)
      guard current < Schema.currentVersion else { return }
      // A new store gets the current schema at once, an older one each migration in turn.
      if current == 0 {
        try database.execute(Schema.created)
      } else {
        for migration in Schema.migrations[current...] { try database.execute(migration) }
      }
      // A row left referring to nothing is what a cascade would have deleted: delete it.
      let orphans = try database.query(
        "PRAGMA foreign_key_check", row: { (table: $0.text(0), row: $0.optionalInt(1)) })
      for orphan in orphans {
        guard let row = orphan.row, Schema.tables.contains(orphan.table) else { continue }
        try database.run("DELETE FROM \(orphan.table) WHERE rowid = ?", .integer(row))
      }
      if current == 0, let fill { try fill(Accounts<AccountStoreError>(database)) }
      try database.execute("PRAGMA user_version = \(Schema.currentVersion)")
      try database.execute("PRAGMA application_id = \(StoreOpener.applicationID)")
    }
  }

  private static func userVersion(_ database: SQLiteDatabase) throws -> Int {
    try database.first("PRAGMA user_version", row: { Int($0.int(0)) }) ?? 0
  }
}
