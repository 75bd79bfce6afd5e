/// A value of a TOML document.
public indirect enum TOMLValue: Equatable, Sendable {
  /// A string.
  case string(String)
  /// An integer.
  case integer(Int64)
  /// A float.
  case float(Double)
  /// `true` or `false`.
  case boolean(Bool)
  /// A date, a time or both, as TOML writes it (`1979-05-27T07:32:00Z`).
  case dateTime(String)
  /// An array.
  case array([TOMLValue])
  /// A table: `[name]`, a dotted key's parent or an inline table.
  case table(TOMLTable)

  /// The value as written in a TOML file, for messages (a string in quotes, an array or a
  /// table shortened).
  public var written: String {
    switch self {
    case .string(let text): "\"\(text.count > 40 ? text.prefix(40) + "…" : text)\""
    case .integer(let number): String(number)
    case .float(let number): String(number)
    case .boolean(let flag): flag ? "true" : "false"
    case .dateTime(let text): text
    case .array(let values): "[" + values.map(\.written).joined(separator: ", ") + "]"
    case .table: "{…}"
    }
  }
}

/// A key of a table, its value and the line it is on.
public struct TOMLEntry: Equatable, Sendable {
  /// The key, without its table's.
  public var key: String
  /// The value.
  public var value: TOMLValue
  /// The line the key is on (a table's: its header's), from 1.
  public var line: Int

  /// An entry of `key` and `value` on `line`.
  public init(key: String, value: TOMLValue, line: Int) {
    self.key = key
    self.value = value
    self.line = line
  }
}

/// A TOML table: its entries in the order of the file.
public struct TOMLTable: Equatable, Sendable {
  /// The entries, in the order of their lines.
  public var entries: [TOMLEntry]

  /// A table of `entries`.
  public init(_ entries: [TOMLEntry] = []) {
    self.entries = entries
  }

  /// The value of `key`, if the table has it.
  public subscript(key: String) -> TOMLValue? {
    entries.first { $0.key == key }?.value
  }
}
