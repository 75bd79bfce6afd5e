/// Where the accounts are kept: the embedded SQLite file, or a PostgreSQL database. The rules
/// above read and write only through ``Accounts``, which one of these lends them.
package protocol AccountStoring: Sendable {
  /// Where the accounts live.
  var location: StoreLocation { get }
  /// What opening the store changed to keep it safe (permissions made private), for the user.
  var warnings: [String] { get }

  /// Runs `body` with the store, outside any transaction (each statement its own).
  func withAccounts<T, Failure: StoreFailure>(_ body: (Accounts<Failure>) throws(Failure) -> T)
    throws(Failure) -> T

  /// ``withAccounts(_:)`` for a body that throws errors of other kinds too.
  func withAccounts<T, Failure: StoreFailure>(
    as failure: Failure.Type, _ body: (Accounts<Failure>) throws -> T
  ) throws -> T

  /// Runs `body` in one write transaction, undone when it throws; as if no other ran at the
  /// same time.
  func write<T, Failure: StoreFailure>(_ body: (Accounts<Failure>) throws(Failure) -> T)
    throws(Failure) -> T

  /// ``write(_:)`` for a body that throws errors of other kinds too.
  func write<T, Failure: StoreFailure>(
    as failure: Failure.Type, _ body: (Accounts<Failure>) throws -> T
  ) throws -> T

  /// The rows of `sql` as text, `columns` to a row (`NULL` as the empty text): for tests and
  /// diagnostics that look at what the store holds.
  func rows(_ sql: String, columns: Int32) throws(AccountStoreError) -> [[String]]
}

extension StoreLocation {
  /// Opens the store at this location, creating it or bringing it to the current schema; a
  /// new store is filled by what `newStore` gives, in the transaction that creates it.
  package func open(
    newStore: () throws -> (Accounts<AccountStoreError>) throws(AccountStoreError) -> Void
  ) throws(EmbeddedStoreError) -> any AccountStoring {
    switch self {
    case .memory, .file: try SQLiteAccountStore(location: self, newStore: newStore)
    case .postgres(let url): try PostgresAccountStore(url: url, newStore: newStore)
    }
  }
}
