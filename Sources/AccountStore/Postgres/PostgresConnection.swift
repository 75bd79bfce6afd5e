import CPostgres

#if canImport(Glibc)
  import Glibc
#endif

/// One libpq connection: statements run synchronously on the caller's thread. Not thread-safe:
/// `PostgresPool` hands each connection to one caller at a time.
package final class PostgresConnection {
  private let handle: OpaquePointer
  /// Set when the link failed or the server ended the session: the pool then replaces it.
  package private(set) var isBroken = false
  /// Set when a statement of the open transaction lost to a concurrent one (a serialization
  /// failure, a deadlock, a unique key taken): the transaction must run again. `begin` clears it.
  package private(set) var sawConflict = false
  /// Whether reads lock the rows they find until the transaction ends (`FOR UPDATE`): on in
  /// the store's write transactions, so that two of them that read one row to change it (a
  /// refresh token, a code, a factor's last step) take turns.
  package var locksReads = false
  /// The statements prepared on this connection, by their text and parameter types, with their
  /// names: each is parsed once per connection and, once PostgreSQL finds a generic plan as
  /// good as its custom ones, planned once too, as drivers' statement caches do (pgx's by
  /// default). Parsing and planning were half of PostgreSQL's time on a sign-in.
  private var prepared: [PreparedKey: String] = [:]
  /// Off once the server forgot a statement prepared on this connection (a pooler in front of
  /// it hands each transaction to another session), and statements are sent whole again.
  package private(set) var prepares = true

  /// The most statements prepared on one connection; beyond them, statements are sent whole.
  package static let preparedLimit = 256

  private struct PreparedKey: Hashable {
    let sql: String
    let types: [UInt32]
  }

  /// The clause that locks what a read of `alias` (or of its one table) finds, in a write.
  func lock(_ alias: String? = nil) -> String {
    guard locksReads else { return "" }
    return alias.map { "FOR UPDATE OF \($0)" } ?? "FOR UPDATE"
  }

  /// Connects to `url`, waiting at most `timeout` seconds (unless the URL sets
  /// `connect_timeout`), and sets the session up as the store's readers expect (UTF-8, ISO
  /// dates in UTC, hexadecimal `bytea`).
  package init(url: PostgresURL, timeout: Int = 10) throws(AccountStoreError) {
    // Later entries win: the timeout is a default the URL may change; the encoding is not.
    let options: KeyValuePairs = [
      "connect_timeout": String(max(timeout, 2)), "dbname": url.string, "client_encoding": "UTF8",
    ]
    let handle = withConnectionOptions(options) { PQconnectdbParams($0, $1, 1) }
    guard let handle else { throw AccountStoreError(.unavailable, "PostgreSQL: out of memory") }
    guard PQstatus(handle) == CONNECTION_OK else {
      let reason = Self.oneLine(String(cString: PQerrorMessage(handle)))
      PQfinish(handle)
      throw AccountStoreError(.unavailable, "cannot connect to PostgreSQL: \(reason)")
    }
    cpostgres_ignore_notices(handle)
    self.handle = handle
    do {
      try execute("SET DateStyle = ISO, YMD; SET TimeZone = 'UTC'; SET bytea_output = hex")
    } catch {
      PQfinish(handle)
      throw error
    }
  }

  deinit { PQfinish(handle) }

  /// The server process serving this connection (`pg_backend_pid()`).
  package var backendPID: Int32 { PQbackendPID(handle) }

  /// Whether a transaction is open on the connection (or failed and awaits its rollback).
  package var isInTransaction: Bool {
    let status = PQtransactionStatus(handle)
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
  }

  /// Runs one or more statements without parameters (a script), ignoring any rows.
  package func execute(_ sql: String) throws(AccountStoreError) {
    _ = try answer(PQexec(handle, sql), parameters: [])
  }

  /// Runs one statement with `values` bound to `$1`, `$2`, …; returns its rows, if any.
  @discardableResult
  package func query(_ sql: String, _ values: PostgresValue...) throws(AccountStoreError)
    -> PostgresRows
  {
    try query(sql, values)
  }

  /// Runs one statement with `values` bound to `$1`, `$2`, …; returns its rows, if any.
  @discardableResult
  package func query(_ sql: String, _ values: [PostgresValue]) throws(AccountStoreError)
    -> PostgresRows
  {
    var buffers: [UnsafeMutablePointer<CChar>?] = []
    defer { buffers.forEach { $0?.deallocate() } }
    var lengths = [Int32](repeating: 0, count: values.count)
    for (index, value) in values.enumerated() {
      guard let bytes = value.wireBytes else {
        buffers.append(nil)
        continue
      }
      if value.format == 0, bytes.contains(0) {
        throw AccountStoreError(.failed, "parameter $\(index + 1) holds a NUL, which text cannot")
      }
      // libpq reads a text value up to its NUL, and a binary one by its length.
      let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
      UnsafeMutableRawBufferPointer(start: buffer, count: bytes.count).copyBytes(from: bytes)
      buffer[bytes.count] = 0
      buffers.append(buffer)
      lengths[index] = Int32(bytes.count)
    }
    let types = values.map(\.typeOID)
    let pointers = buffers.map { $0.map { UnsafePointer($0) } }
    let formats = values.map(\.format)
    guard prepares, !values.isEmpty,
      let name = try statement(PreparedKey(sql: sql, types: types), parameters: values)
    else {
      let result = PQexecParams(
        handle, sql, Int32(values.count), types, pointers, lengths, formats, 0)
      return try answer(result, parameters: values)
    }
    let result = PQexecPrepared(handle, name, Int32(values.count), pointers, lengths, formats, 0)
    do {
      return try answer(result, parameters: values)
    } catch let error where error.sqlState == "26000" || error.sqlState == "0A000" {
      // 26000: the session has no such statement (a pooler gave this transaction to another);
      // 0A000: the table under a statement changed shape since it was prepared.
      prepared.removeValue(forKey: PreparedKey(sql: sql, types: types))
      if error.sqlState == "26000" {
        prepares = false
        prepared.removeAll()
      }
      guard !isInTransaction else { throw error }
      let result = PQexecParams(
        handle, sql, Int32(values.count), types, pointers, lengths, formats, 0)
      return try answer(result, parameters: values)
    }
  }

  /// The name of `key`'s statement, prepared now if this is its first use; nil past the limit.
  private func statement(_ key: PreparedKey, parameters: [PostgresValue])
    throws(AccountStoreError) -> String?
  {
    if let name = prepared[key] { return name }
    guard prepared.count < Self.preparedLimit else { return nil }
    let name = "authflow_\(prepared.count + 1)"
    let result = PQprepare(handle, name, key.sql, Int32(key.types.count), key.types)
    do {
      _ = try answer(result, parameters: parameters)
    } catch let error where error.sqlState == "42P05" {
      // The name is taken: this session is not the one the statements were prepared on.
      prepares = false
      prepared.removeAll()
      guard !isInTransaction else { throw error }
      return nil
    }
    prepared[key] = name
    return name
  }

  /// The rows of a query, each turned into a value by `row`.
  package func rows<Row>(
    _ sql: String, _ values: PostgresValue...,
    row: (PostgresRow) throws(AccountStoreError) -> Row
  ) throws(AccountStoreError) -> [Row] {
    let rows = try query(sql, values)
    var values: [Row] = []
    values.reserveCapacity(rows.count)
    for index in 0..<rows.count { values.append(try row(rows[index])) }
    return values
  }

  /// ``rows(_:_:row:)`` with the values in an array.
  package func rows<Row>(
    _ sql: String, _ values: [PostgresValue],
    row: (PostgresRow) throws(AccountStoreError) -> Row
  ) throws(AccountStoreError) -> [Row] {
    let rows = try query(sql, values)
    var answer: [Row] = []
    answer.reserveCapacity(rows.count)
    for index in 0..<rows.count { answer.append(try row(rows[index])) }
    return answer
  }

  /// ``first(_:_:row:)`` with the values in an array.
  package func first<Row>(
    _ sql: String, _ values: [PostgresValue],
    row: (PostgresRow) throws(AccountStoreError) -> Row
  ) throws(AccountStoreError) -> Row? {
    let rows = try query(sql, values)
    return rows.count > 0 ? try row(rows[0]) : nil
  }

  /// The first row of a query turned into a value by `row`, or `nil` when it has none.
  package func first<Row>(
    _ sql: String, _ values: PostgresValue...,
    row: (PostgresRow) throws(AccountStoreError) -> Row
  ) throws(AccountStoreError) -> Row? {
    let rows = try query(sql, values)
    return rows.count > 0 ? try row(rows[0]) : nil
  }

  // MARK: Transactions

  /// Opens a transaction at `isolation`.
  package func begin(_ isolation: PostgresIsolation) throws(AccountStoreError) {
    sawConflict = false
    try execute("BEGIN ISOLATION LEVEL \(isolation.sql)")
  }

  /// Commits the open transaction; a serialization failure at commit is a `.conflict`.
  package func commit() throws(AccountStoreError) {
    // NB: COMMIT of a failed transaction answers "ROLLBACK" without an error.
    let rows = try query("COMMIT")
    if rows.commandStatus == "ROLLBACK" {
      throw AccountStoreError(
        .failed, "PostgreSQL rolled the transaction back instead of committing")
    }
  }

  /// Undoes the open transaction (nothing happens when none is open).
  package func rollback() throws(AccountStoreError) {
    try execute("ROLLBACK")
  }

  /// Runs `body` in a transaction at `isolation`, committed when `body` returns and rolled
  /// back when it throws.
  @discardableResult
  package func transaction<T>(
    _ isolation: PostgresIsolation, _ body: (PostgresConnection) throws(AccountStoreError) -> T
  ) throws(AccountStoreError) -> T {
    try begin(isolation)
    do {
      let value = try body(self)
      try commit()
      return value
    } catch {
      if !isBroken { try? rollback() }
      throw error
    }
  }

  // MARK: Health

  /// Whether the server ended the connection while it sat idle. An idle connection is sent
  /// nothing unasked, so anything that arrived is read at once, without waiting: a server that
  /// ended the session sent its farewell and closed, which libpq then finds.
  package func hasEnded() -> Bool {
    for _ in 0..<4 where !isBroken {
      if PQstatus(handle) != CONNECTION_OK {
        isBroken = true
        break
      }
      var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 0) > 0 else { return false }
      if PQconsumeInput(handle) == 0 { isBroken = true }
      // Parses what arrived: a notice goes to the processor that drops it.
      _ = PQisBusy(handle)
    }
    return isBroken
  }

  // MARK: Results

  /// The rows of a result, or the store's error for a failed one (and the connection marked
  /// broken when the failure ended it).
  private func answer(_ result: OpaquePointer?, parameters: [PostgresValue])
    throws(AccountStoreError) -> PostgresRows
  {
    guard let result else {
      isBroken = isBroken || PQstatus(handle) != CONNECTION_OK
      let reason = Self.oneLine(String(cString: PQerrorMessage(handle)))
      throw AccountStoreError(isBroken ? .unavailable : .failed, "PostgreSQL: \(reason)")
    }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
      return PostgresRows(result)
    default:
      defer { PQclear(result) }
      let sqlState = Self.field(result, cpostgres_diag_sqlstate)
      let primary =
        Self.field(result, cpostgres_diag_message_primary)
        ?? Self.oneLine(String(cString: PQerrorMessage(handle)))
      let lost = PQstatus(handle) != CONNECTION_OK
      if lost || PostgresFailure.endsConnection(sqlState: sqlState) { isBroken = true }
      // A write that lost a race: run it again from the start (a unique key taken meanwhile is
      // such a race too, as every write checks its keys before it writes).
      if ["40001", "40P01", "23505"].contains(sqlState) { sawConflict = true }
      throw AccountStoreError(
        PostgresFailure.kind(sqlState: sqlState, connectionLost: lost),
        PostgresFailure.message(primary, sqlState: sqlState, parameters: parameters),
        sqlState: sqlState)
    }
  }

  private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
    PQresultErrorField(result, code).map { String(cString: $0) }
  }

  /// libpq's message, which may span lines, as one line.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline)
      .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
      .filter { !$0.isEmpty }
      .joined(separator: "; ")
  }

}

/// How a transaction sees others running at the same time.
package enum PostgresIsolation: Sendable {
  /// As if the transactions ran one after another; a conflict fails one with `.conflict`.
  case serializable
  /// Each statement sees what was committed before it began.
  case readCommitted

  /// The words of `BEGIN ISOLATION LEVEL`.
  var sql: String {
    switch self {
    case .serializable: "SERIALIZABLE"
    case .readCommitted: "READ COMMITTED"
    }
  }
}
