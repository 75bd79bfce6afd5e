/// A value bound to a parameter (`$1`, `$2`, …) of a PostgreSQL statement, sent in libpq's text
/// format.
///
/// All but bytes go untyped: the server types each from where it is used (a `uuid`, `jsonb`,
/// `timestamptz`, `int4` or `int8` column takes its text), as it types a quoted literal; where
/// nothing says, cast it (`$1::int8`).
package enum PostgresValue: Equatable, Sendable {
  /// NULL.
  case null
  /// An integer, as its decimal text.
  case integer(Int64)
  /// A float, as the shortest text that reads back as the same value.
  case double(Double)
  /// UTF-8 text without NUL.
  case text(String)
  /// Bytes, sent as `bytea` (in libpq's binary format: as they are).
  case bytes([UInt8])

  /// Text, or NULL.
  package static func optional(_ value: String?) -> PostgresValue {
    value.map(PostgresValue.text) ?? .null
  }

  /// An integer, or NULL.
  package static func optional(_ value: Int64?) -> PostgresValue {
    value.map(PostgresValue.integer) ?? .null
  }

  /// A time in Unix milliseconds, as `timestamptz` text.
  package static func timestamp(milliseconds: Int64) -> PostgresValue {
    .text(PostgresTimestamp.text(milliseconds: milliseconds))
  }

  /// The type libpq is told (`0` lets the server infer it).
  var typeOID: UInt32 {
    switch self {
    case .null, .text, .integer, .double: 0
    case .bytes: 17  // bytea
    }
  }

  /// The bytes libpq sends: text for all but `bytes`, which go as they are; `nil` for NULL.
  var wireBytes: [UInt8]? {
    switch self {
    case .null: nil
    case .integer(let integer): Array(String(integer).utf8)
    case .double(let double) where double.isNaN: Array("NaN".utf8)
    case .double(let double) where double.isInfinite:
      Array((double < 0 ? "-Infinity" : "Infinity").utf8)
    case .double(let double): Array("\(double)".utf8)
    case .text(let text): Array(text.utf8)
    case .bytes(let bytes): bytes
    }
  }

  /// libpq's format code: 0 for text, 1 for binary.
  var format: Int32 {
    if case .bytes = self { 1 } else { 0 }
  }
}
