import AccountStore
import Foundation
import PostgresTestSupport

/// A new empty database on the tests' PostgreSQL server, for one test.
func makePostgresDatabase() throws -> PostgresURL {
  try PostgresTestServer.shared().makeDatabase()
}

/// A connection to a new empty database on the tests' PostgreSQL server.
func connectToNewDatabase() throws -> PostgresConnection {
  try PostgresConnection(url: makePostgresDatabase())
}

/// A file of `Fixtures`, beside this test target's sources.
func fixture(_ name: String) throws -> String {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  return try String(
    contentsOf: folder.appendingPathComponent("Fixtures").appendingPathComponent(name),
    encoding: .utf8)
}

extension PostgresConnection {
  /// The rows of a query without parameters, each as its columns' text (`NULL` for NULL).
  func texts(_ sql: String) throws(AccountStoreError) -> [[String]] {
    try rows(sql) { row throws(AccountStoreError) in
      var columns: [String] = []
      for column in 0..<row.columnCount { columns.append(try row.optionalText(column) ?? "NULL") }
      return columns
    }
  }

  /// The rows of a query with parameters, each as its columns' text (`NULL` for NULL).
  func texts(_ sql: String, _ values: PostgresValue...) throws(AccountStoreError) -> [[String]] {
    try rows(sql, values) { row throws(AccountStoreError) in
      var columns: [String] = []
      for column in 0..<row.columnCount { columns.append(try row.optionalText(column) ?? "NULL") }
      return columns
    }
  }

  /// The first column of a query's rows, as text.
  func column(_ sql: String) throws(AccountStoreError) -> [String] {
    try texts(sql).map { $0.first ?? "" }
  }
}
