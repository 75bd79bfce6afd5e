import CSQLite

/// A prepared statement: bind, step, read columns, reset.
package final class SQLiteStatement {
  private let handle: OpaquePointer
  private let database: OpaquePointer

  package init(_ handle: OpaquePointer, database: OpaquePointer) {
    self.handle = handle
    self.database = database
  }

  deinit { sqlite3_finalize(handle) }

  package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .null:
        status = sqlite3_bind_null(handle, index)
      case .integer(let integer):
        status = sqlite3_bind_int64(handle, index, integer)
      case .real(let real):
        status = sqlite3_bind_double(handle, index, real)
      case .text(let text):
        var text = text
        status = text.withUTF8 { utf8 in
          // A NULL pointer would bind NULL, not the empty string.
          if utf8.isEmpty { return csqlite_bind_text(handle, index, "", 0) }
          return utf8.withMemoryRebound(to: CChar.self) {
            csqlite_bind_text(handle, index, $0.baseAddress, Int32($0.count))
          }
        }
      case .blob(let bytes) where bytes.isEmpty:
        status = sqlite3_bind_zeroblob(handle, index, 0)
      case .blob(let bytes):
        status = bytes.withUnsafeBytes {
          csqlite_bind_blob(handle, index, $0.baseAddress, Int32($0.count))
        }
      }
      guard status == SQLITE_OK else { throw error(status) }
    }
  }

  /// Advances to the next row; `false` when the statement is done.
  package func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let status: throw error(status)
    }
  }

  package func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// How many columns a row of it has.
  package var columnCount: Int32 { sqlite3_column_count(handle) }

  package func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  package func optionalInt(_ column: Int32) -> Int64? {
    sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : int(column)
  }

  package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  package func text(_ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  package func optionalText(_ column: Int32) -> String? {
    sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
  }

  package func blob(_ column: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  private func error(_ status: Int32) -> SQLiteError {
    SQLiteError(
      code: sqlite3_extended_errcode(database), message: String(cString: sqlite3_errmsg(database)))
  }
}
