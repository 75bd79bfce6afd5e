/// The accounts as one request sees them: every read and write the rules above make, as typed
/// operations (in `Accounts+*.swift`, one file per concept, beside its queries).
package struct Accounts {
  /// The connection, held under the store's lock for as long as this value is used.
  let database: SQLiteDatabase

  init(_ database: SQLiteDatabase) {
    self.database = database
  }

  /// Runs `body` so that its writes are undone when it throws, and the error passed on; the
  /// enclosing transaction may go on (after a refusal of the rules) or end (after the store's
  /// own failure).
  package func undoingOnFailure<T>(_ body: () throws -> T) throws -> T {
    try execute("SAVEPOINT request")
    do {
      let value = try body()
      try execute("RELEASE request")
      return value
    } catch {
      do {
        try execute("ROLLBACK TO request; RELEASE request")
      } catch let undo {
        // The store ended the transaction itself (a full disk rolls it all back): its failure
        // is the one to tell. A refusal whose writes could not be undone must not commit: the
        // store's failure ends the transaction.
        throw error is AccountStoreError ? error : undo
      }
      throw error
    }
  }

  // MARK: Statements, for the operations beside each record

  func run(_ sql: String, _ values: SQLiteValue...) throws(AccountStoreError) {
    try run(sql, values)
  }

  func run(_ sql: String, _ values: [SQLiteValue]) throws(AccountStoreError) {
    do { try database.run(sql, values) } catch { throw error.storeError }
  }

  func query<Row>(
    _ sql: String, _ values: SQLiteValue..., row: (SQLiteStatement) -> Row
  ) throws(AccountStoreError) -> [Row] {
    try query(sql, values, row: row)
  }

  func query<Row>(
    _ sql: String, _ values: [SQLiteValue], row: (SQLiteStatement) -> Row
  ) throws(AccountStoreError) -> [Row] {
    do { return try database.query(sql, values, row: row) } catch { throw error.storeError }
  }

  func first<Row>(
    _ sql: String, _ values: SQLiteValue..., row: (SQLiteStatement) -> Row
  ) throws(AccountStoreError) -> Row? {
    try first(sql, values, row: row)
  }

  func first<Row>(
    _ sql: String, _ values: [SQLiteValue], row: (SQLiteStatement) -> Row
  ) throws(AccountStoreError) -> Row? {
    do { return try database.first(sql, values, row: row) } catch { throw error.storeError }
  }

  func execute(_ sql: String) throws(AccountStoreError) {
    do { try database.execute(sql) } catch { throw error.storeError }
  }

  /// Rows changed by the last statement.
  var changes: Int { database.changes }
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
