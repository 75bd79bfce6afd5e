import Testing

@testable import AccountStore

/// A new store is made with the current schema in one script; an older one migrates in turn.
struct SchemaTests {
  @Test func aNewStoreHasWhatEveryMigrationInTurnMakes() throws {
    let migrated = try SQLiteDatabase(path: ":memory:", create: true)
    try migrated.execute(Schema.migrations.joined(separator: "\n"))
    let created = try SQLiteDatabase(path: ":memory:", create: true)
    try created.execute(Schema.created)

    let objects = try Self.objects(in: migrated)
    #expect(objects.count == 41, "21 tables and 20 indexes")
    #expect(try Self.objects(in: created) == objects)
    // What the schema's text says, SQLite's reading of it says too: columns in the same order
    // with the same types, defaults and keys, the same indexes and foreign keys.
    for key in objects.keys where key[0] == "table" {
      let name = key[1]
      for pragma in ["table_xinfo", "index_list", "foreign_key_list"] {
        let sql = "PRAGMA \(pragma)(\(name))"
        #expect(try Self.rows(sql, in: created) == Self.rows(sql, in: migrated), "\(sql)")
      }
    }
  }

  /// Each table and index by kind and name, with its SQL as tokens: lower case outside quoted
  /// text, without the quotes a rename adds around a name, whatever the spacing.
  private static func objects(in database: SQLiteDatabase) throws -> [[String]: [String]] {
    let rows = try database.query(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL",
      row: { ($0.text(0), $0.text(1), $0.text(2)) })
    return Dictionary(uniqueKeysWithValues: rows.map { ([$0.0, $0.1], tokens($0.2)) })
  }

  private static func tokens(_ sql: String) -> [String] {
    var tokens: [String] = []
    var word = ""
    var quoted: String?
    for character in sql {
      if var text = quoted {
        text.append(character)
        quoted = character == "'" ? nil : text
        if character == "'" { tokens.append(text) }
        continue
      }
      if character.isLetter || character.isNumber || character == "_" {
        word += character.lowercased()
        continue
      }
      if !word.isEmpty { tokens.append(word) }
      word = ""
      if character == "'" {
        quoted = "'"
      } else if !character.isWhitespace && character != "\"" {
        tokens.append(String(character))
      }
    }
    if !word.isEmpty { tokens.append(word) }
    return tokens
  }

  private static func rows(_ sql: String, in database: SQLiteDatabase) throws -> [[String]] {
    try database.query(sql) { row in
      (0..<row.columnCount).map { row.optionalText($0) ?? "NULL" }
    }
  }
}
