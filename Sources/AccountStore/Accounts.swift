/// The accounts as one request sees them: every read and write the rules above make, as typed
/// operations (beside each record, in `Records/`). Each operation throws the caller's own
/// failure type (`Failure`), made from the store's ``AccountStoreError`` in one place, so the
/// rules above keep one typed error from the store to their answer.
package struct Accounts<Failure: StoreFailure> {
  /// The store's connection, held (under the SQLite store's lock, or lent by the PostgreSQL
  /// store's pool) for as long as this value is used.
  private let connection: Connection

  private enum Connection {
    case sqlite(SQLiteDatabase)
    case postgres(PostgresConnection)
  }

  init(_ database: SQLiteDatabase) {
    connection = .sqlite(database)
  }

  init(postgres: PostgresConnection) {
    connection = .postgres(postgres)
  }

  /// The SQLite connection; only the SQLite side of an operation asks for it, and a SQLite
  /// statement on a PostgreSQL store (a bug, or a test's own SQL) fails as the store's error.
  func sqlite() throws(Failure) -> SQLiteDatabase {
    switch connection {
    case .sqlite(let database): return database
    case .postgres: throw failure("a SQLite statement on a PostgreSQL store")
    }
  }

  /// The PostgreSQL connection, when the store is one.
  var postgres: PostgresConnection? {
    if case .postgres(let connection) = connection { connection } else { nil }
  }

  /// Runs the PostgreSQL side of an operation, its failures told as `Failure`.
  func onPostgres<T>(_ body: () throws(AccountStoreError) -> T) throws(Failure) -> T {
    do {
      return try body()
    } catch {
      throw Failure(store: error)
    }
  }

  /// Runs `body` so that its writes are undone when it throws, and the error passed on; the
  /// enclosing transaction may go on (after a refusal of the rules) or end (after the store's
  /// own failure).
  package func undoingOnFailure<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    try execute("SAVEPOINT request")
    do {
      let value = try body()
      try execute("RELEASE request")
      return value
    } catch {
      try undo(after: error)
      throw error
    }
  }

  /// ``undoingOnFailure(_:)`` for a body that throws errors of other kinds too.
  package func undoingOnAnyFailure<T>(_ body: () throws -> T) throws -> T {
    try execute("SAVEPOINT request")
    do {
      let value = try body()
      try execute("RELEASE request")
      return value
    } catch {
      try undo(after: error)
      throw error
    }
  }

  /// Rolls back to the savepoint after `error`. When the store ended the transaction itself
  /// (a full disk rolls it all back), `error` is the one to tell when it is the store's; a
  /// refusal whose writes could not be undone must not commit, so the store's failure to undo
  /// ends the transaction instead.
  private func undo(after error: any Error) throws(Failure) {
    do {
      try execute("ROLLBACK TO request; RELEASE request")
    } catch let undo {
      if let error = error as? Failure, error.isStoreFailure { throw error }
      throw undo
    }
  }

  // MARK: Statements, for the operations beside each record

  func run(_ sql: String, _ values: SQLiteValue...) throws(Failure) {
    try run(sql, values)
  }

  func run(_ sql: String, _ values: [SQLiteValue]) throws(Failure) {
    let database = try sqlite()
    do { try database.run(sql, values) } catch { throw Failure(store: error.storeError) }
  }

  func query<Row>(
    _ sql: String, _ values: SQLiteValue..., row: (SQLiteStatement) -> Row
  ) throws(Failure) -> [Row] {
    try query(sql, values, row: row)
  }

  func query<Row>(
    _ sql: String, _ values: [SQLiteValue], row: (SQLiteStatement) -> Row
  ) throws(Failure) -> [Row] {
    let database = try sqlite()
    do {
      return try database.query(sql, values, row: row)
    } catch {
      throw Failure(store: error.storeError)
    }
  }

  func first<Row>(
    _ sql: String, _ values: SQLiteValue..., row: (SQLiteStatement) -> Row
  ) throws(Failure) -> Row? {
    try first(sql, values, row: row)
  }

  func first<Row>(
    _ sql: String, _ values: [SQLiteValue], row: (SQLiteStatement) -> Row
  ) throws(Failure) -> Row? {
    let database = try sqlite()
    do {
      return try database.first(sql, values, row: row)
    } catch {
      throw Failure(store: error.storeError)
    }
  }

  /// Runs statements without parameters on either store (the same SQL on both).
  func execute(_ sql: String) throws(Failure) {
    if let postgres {
      try onPostgres { () throws(AccountStoreError) in try postgres.execute(sql) }
      return
    }
    let database = try sqlite()
    do { try database.execute(sql) } catch { throw Failure(store: error.storeError) }
  }

  /// A failure of the store's own, for what it finds wrong in its rows.
  func failure(_ message: String) -> Failure {
    Failure(store: AccountStoreError(.failed, message))
  }
}

extension SQLiteValue {
  /// An integer, or NULL.
  static func optional(_ value: Int64?) -> SQLiteValue {
    value.map(SQLiteValue.integer) ?? .null
  }

  /// A flag, as SQLite keeps one (0 or 1).
  static func bool(_ value: Bool) -> SQLiteValue {
    .integer(value ? 1 : 0)
  }

  /// Text, or NULL.
  static func optional(_ value: String?) -> SQLiteValue {
    value.map(SQLiteValue.text) ?? .null
  }
}
