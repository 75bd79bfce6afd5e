import CSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// An SQLite error: the result code and SQLite's own message (never user input).
package struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The extended result code.
  package var code: Int32
  /// SQLite's explanation.
  package var message: String

  /// One line for people.
  package var description: String { "\(message) (SQLite error \(code))" }

  /// The failure as the store reports it: what kind of storage problem.
  package var storeError: AccountStoreError {
    let kind: AccountStoreError.Kind =
      switch code & 0xFF {
      case SQLITE_READONLY: .readOnly
      case SQLITE_FULL: .full
      case SQLITE_CORRUPT, SQLITE_NOTADB: .damaged
      case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_BUSY, SQLITE_LOCKED: .unavailable
      default: .failed
      }
    return AccountStoreError(kind, description)
  }
}

/// A value bound to or read from SQL.
package enum SQLiteValue: Equatable, Sendable {
  /// NULL.
  case null
  /// An integer.
  case integer(Int64)
  /// A float.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Bytes.
  case blob([UInt8])
}

/// One SQLite connection with a cache of prepared statements. Not thread-safe: the engine
/// guards it with a lock.
package final class SQLiteDatabase {
  private let handle: OpaquePointer
  private var cache: [String: SQLiteStatement] = [:]

  /// Opens (creating if allowed) the database at `path`; `:memory:` is a private in-memory one.
  package init(path: String, create: Bool) throws(SQLiteError) {
    var handle: OpaquePointer?
    let flags =
      SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
      | SQLITE_OPEN_EXRESCODE
    let status = sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(handle)
      throw SQLiteError(code: status, message: message)
    }
    self.handle = handle
  }

  deinit {
    cache.removeAll()
    checkpointIfWritten()
    sqlite3_close_v2(handle)
  }

  /// Copies what this connection wrote from the write-ahead log into the database and empties
  /// the log, as SQLite's own close would (`keepWriteAheadLog` turns that off): otherwise the
  /// next process to open the store reads and checks every frame of the log before its first
  /// query, up to the thousand pages after which SQLite checkpoints by itself. A connection
  /// that only read leaves the log alone, and one that finds another process using the store
  /// leaves it to that process: the checkpoint never waits.
  private func checkpointIfWritten() {
    guard sqlite3_total_changes64(handle) > 0 else { return }
    sqlite3_busy_timeout(handle, 0)
    sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
  }

  /// Keeps the write-ahead log files between connections instead of creating and deleting
  /// them on every open and close.
  package func keepWriteAheadLog() throws(SQLiteError) {
    try check(csqlite_keep_wal(handle))
  }

  /// Runs one or more statements that return no rows.
  package func execute(_ sql: String) throws(SQLiteError) {
    try check(sqlite3_exec(handle, sql, nil, nil, nil))
  }

  /// Runs statements that SQLite answers with "busy" at once instead of waiting on the busy
  /// timeout (switching a brand-new file to WAL while another process does the same), trying
  /// again until `seconds` have passed.
  package func executeWaitingWhileBusy(_ sql: String, for seconds: Double) throws(SQLiteError) {
    var waited = 0.0
    while true {
      do {
        return try execute(sql)
      } catch {
        let primary = error.code & 0xFF
        guard primary == SQLITE_BUSY || primary == SQLITE_LOCKED, waited < seconds else {
          throw error
        }
        usleep(5_000)
        waited += 0.005
      }
    }
  }

  /// Runs a statement with `values` bound to its `?` parameters.
  package func run(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) {
    try run(sql, values)
  }

  /// Runs a statement with `values` bound to its `?` parameters.
  package func run(_ sql: String, _ values: [SQLiteValue]) throws(SQLiteError) {
    let statement = try prepared(sql)
    try statement.bind(values)
    defer { statement.reset() }
    while try statement.step() {}
  }

  /// The rows of a query, each turned into a value by `row`.
  package func query<Row>(
    _ sql: String, _ values: SQLiteValue..., row: (SQLiteStatement) -> Row
  ) throws(SQLiteError) -> [Row] {
    try query(sql, values, row: row)
  }

  /// The rows of a query, each turned into a value by `row`.
  package func query<Row>(
    _ sql: String, _ values: [SQLiteValue], row: (SQLiteStatement) -> Row
  ) throws(SQLiteError) -> [Row] {
    let statement = try prepared(sql)
    try statement.bind(values)
    defer { statement.reset() }
    var rows: [Row] = []
    while try statement.step() { rows.append(row(statement)) }
    return rows
  }

  /// The first row of a query, or `nil` when it has none.
  package func first<Row>(
    _ sql: String, _ values: SQLiteValue..., row: (SQLiteStatement) -> Row
  ) throws(SQLiteError) -> Row? {
    try first(sql, values, row: row)
  }

  /// The first row of a query, or `nil` when it has none.
  package func first<Row>(
    _ sql: String, _ values: [SQLiteValue], row: (SQLiteStatement) -> Row
  ) throws(SQLiteError) -> Row? {
    let statement = try prepared(sql)
    try statement.bind(values)
    defer { statement.reset() }
    return try statement.step() ? row(statement) : nil
  }

  /// Runs `body` in a write transaction taken at once (`BEGIN IMMEDIATE`), so concurrent
  /// processes queue on the busy timeout instead of failing mid-way; rolls back on any error.
  package func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// ``transaction(_:)`` for a body of one typed failure, which the transaction's own
  /// statements fail with too.
  package func transaction<T, Failure: StoreFailure>(
    failing: Failure.Type, _ body: () throws(Failure) -> T
  ) throws(Failure) -> T {
    do {
      try execute("BEGIN IMMEDIATE")
    } catch {
      throw Failure(store: error.storeError)
    }
    let result: T
    do {
      result = try body()
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
    do {
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      throw Failure(store: error.storeError)
    }
    return result
  }

  private func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let statement = cache[sql] { return statement }
    var raw: OpaquePointer?
    try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil))
    guard let raw else { throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement") }
    let statement = SQLiteStatement(raw, database: handle)
    cache[sql] = statement
    return statement
  }

  private func check(_ status: Int32) throws(SQLiteError) {
    guard status == SQLITE_OK || status == SQLITE_DONE || status == SQLITE_ROW else {
      throw SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
  }
}
