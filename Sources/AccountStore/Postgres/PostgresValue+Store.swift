extension PostgresValue {
  /// A flag, as text PostgreSQL reads for a `boolean`.
  static func bool(_ value: Bool) -> PostgresValue {
    .text(value ? "true" : "false")
  }
}

/// PostgreSQL's text form of arrays, for `= ANY($n::text[])`.
enum PostgresArray {
  /// `values` as a text array literal, each element quoted.
  static func text(_ values: [String]) -> String {
    let quoted = values.map { value in
      var text = "\""
      for character in value {
        if character == "\\" || character == "\"" { text.append("\\") }
        text.append(character)
      }
      return text + "\""
    }
    return "{" + quoted.joined(separator: ",") + "}"
  }
}
