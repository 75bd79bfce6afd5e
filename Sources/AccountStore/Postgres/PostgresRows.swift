import CPostgres

/// The rows a statement answered, in libpq's text format, read by column with typed accessors.
///
/// A reader's failure (a NULL where a value was asked for, text that is not of the type asked)
/// is the store's `.failed`: the SQL and the reader disagree.
package final class PostgresRows {
  private let result: OpaquePointer

  /// Takes ownership of a result that holds rows or none.
  init(_ result: OpaquePointer) {
    self.result = result
  }

  deinit { PQclear(result) }

  /// How many rows.
  package var count: Int { Int(PQntuples(result)) }

  /// How many columns each row has.
  package var columnCount: Int { Int(PQnfields(result)) }

  /// The name of a column.
  package func name(ofColumn column: Int) -> String {
    PQfname(result, Int32(column)).map { String(cString: $0) } ?? ""
  }

  /// The command tag (`INSERT 0 1`, `COMMIT`, `ROLLBACK`…).
  package var commandStatus: String {
    PQcmdStatus(result).map { String(cString: $0) } ?? ""
  }

  /// How many rows the statement inserted, updated or deleted (0 for others).
  package var changes: Int {
    Int(String(cString: PQcmdTuples(result))) ?? 0
  }

  /// One row of them.
  package subscript(row: Int) -> PostgresRow {
    PostgresRow(rows: self, row: Int32(row))
  }

  func isNull(_ row: Int32, _ column: Int32) -> Bool {
    PQgetisnull(result, row, column) == 1
  }

  /// The value's bytes, which libpq ends with a NUL it does not count; valid while `self` is.
  func bytes(_ row: Int32, _ column: Int32) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(
      start: PQgetvalue(result, row, column), count: Int(PQgetlength(result, row, column)))
  }

  func check(_ row: Int32, _ column: Int32) throws(AccountStoreError) {
    guard row >= 0, row < PQntuples(result), column >= 0, column < PQnfields(result) else {
      throw AccountStoreError(.failed, "no column \(column) in row \(row) of the answer")
    }
  }
}

/// One row of `PostgresRows`; columns are counted from 0.
package struct PostgresRow {
  fileprivate let rows: PostgresRows
  fileprivate let row: Int32

  /// How many columns it has.
  package var columnCount: Int { rows.columnCount }

  /// Whether the column is NULL.
  package func isNull(_ column: Int) throws(AccountStoreError) -> Bool {
    try rows.check(row, Int32(column))
    return rows.isNull(row, Int32(column))
  }

  /// A column as text, in the server's text format (any type has one).
  package func text(_ column: Int) throws(AccountStoreError) -> String {
    guard let text = try optionalText(column) else { throw null(column) }
    return text
  }

  /// A column as text, or `nil` for NULL.
  package func optionalText(_ column: Int) throws(AccountStoreError) -> String? {
    if try isNull(column) { return nil }
    return String(decoding: rows.bytes(row, Int32(column)), as: UTF8.self)
  }

  /// An integer column (`int2`, `int4`, `int8`).
  package func int64(_ column: Int) throws(AccountStoreError) -> Int64 {
    guard let value = try optionalInt64(column) else { throw null(column) }
    return value
  }

  /// An integer column, or `nil` for NULL.
  package func optionalInt64(_ column: Int) throws(AccountStoreError) -> Int64? {
    guard let text = try optionalText(column) else { return nil }
    guard let value = Int64(text) else { throw mismatch(column, "an integer") }
    return value
  }

  /// A `float8` or `float4` column.
  package func double(_ column: Int) throws(AccountStoreError) -> Double {
    let text = try text(column)
    switch text {
    case "NaN": return .nan
    case "Infinity": return .infinity
    case "-Infinity": return -.infinity
    default:
      guard let value = Double(text) else { throw mismatch(column, "a float") }
      return value
    }
  }

  /// A `bool` column.
  package func bool(_ column: Int) throws(AccountStoreError) -> Bool {
    guard let value = try optionalBool(column) else { throw null(column) }
    return value
  }

  /// A `bool` column, or `nil` for NULL.
  package func optionalBool(_ column: Int) throws(AccountStoreError) -> Bool? {
    switch try optionalText(column) {
    case nil: return nil
    case "t": return true
    case "f": return false
    default: throw mismatch(column, "a bool")
    }
  }

  /// A `bytea` column.
  package func bytes(_ column: Int) throws(AccountStoreError) -> [UInt8] {
    guard let value = try optionalBytes(column) else { throw null(column) }
    return value
  }

  /// A `bytea` column, or `nil` for NULL (decoded by libpq from either output style).
  package func optionalBytes(_ column: Int) throws(AccountStoreError) -> [UInt8]? {
    if try isNull(column) { return nil }
    guard let text = rows.bytes(row, Int32(column)).baseAddress else {
      throw mismatch(column, "bytea")
    }
    var count = 0
    guard let decoded = PQunescapeBytea(text.assumingMemoryBound(to: UInt8.self), &count) else {
      throw mismatch(column, "bytea")
    }
    defer { PQfreemem(decoded) }
    return Array(UnsafeBufferPointer(start: decoded, count: count))
  }

  /// A `timestamptz` column as Unix milliseconds (rounded down; `infinity` is `Int64.max`).
  package func milliseconds(_ column: Int) throws(AccountStoreError) -> Int64 {
    guard let value = try optionalMilliseconds(column) else { throw null(column) }
    return value
  }

  /// A `timestamptz` column as Unix milliseconds, or `nil` for NULL.
  package func optionalMilliseconds(_ column: Int) throws(AccountStoreError) -> Int64? {
    guard let text = try optionalText(column) else { return nil }
    guard let value = PostgresTimestamp.milliseconds(text) else {
      throw mismatch(column, "a timestamptz in ISO style")
    }
    return value
  }

  /// A `jsonb` (or `json`) column as its JSON text.
  package func json(_ column: Int) throws(AccountStoreError) -> String {
    try text(column)
  }

  /// A `uuid` column as its text (lower case, with hyphens).
  package func uuid(_ column: Int) throws(AccountStoreError) -> String {
    try text(column)
  }

  private func null(_ column: Int) -> AccountStoreError {
    AccountStoreError(
      .failed, "column \(rows.name(ofColumn: column)) is NULL where a value was read")
  }

  private func mismatch(_ column: Int, _ type: String) -> AccountStoreError {
    AccountStoreError(.failed, "column \(rows.name(ofColumn: column)) is not \(type)")
  }
}
