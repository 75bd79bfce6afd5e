/// How a PostgreSQL failure becomes the store's error: its kind from the SQLSTATE, and a message
/// that never carries a parameter's value.
enum PostgresFailure {
  /// The store's kind for a SQLSTATE; `nil` (no code: libpq's own failure) counts as a lost
  /// connection only when the connection says so.
  static func kind(sqlState: String?, connectionLost: Bool) -> AccountStoreError.Kind {
    if connectionLost { return .unavailable }
    guard let sqlState else { return .failed }
    switch sqlState {
    case "40001", "40P01": return .conflict
    case "53100": return .full
    case "53200", "53300", "53400", "57014": return .unavailable
    case "25006": return .readOnly
    case "XX001", "XX002": return .damaged
    case _ where sqlState.hasPrefix("08") || sqlState.hasPrefix("57P"): return .unavailable
    default: return .failed
    }
  }

  /// Whether the connection cannot be used again after this SQLSTATE (the server ended it, or
  /// the link failed).
  static func endsConnection(sqlState: String?) -> Bool {
    guard let sqlState else { return false }
    return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P")
  }

  /// The server's one-line explanation, made safe to log: data exceptions (class 22) and
  /// errors raised by functions (class P0) may quote an input, so for a statement with
  /// parameters they are named by their code only; and any parameter value of three bytes or
  /// more that still appears is cut out.
  static func message(
    _ primary: String, sqlState: String?, parameters: [PostgresValue]
  ) -> String {
    var message = primary.split(whereSeparator: \.isNewline).joined(separator: " ")
    if !parameters.isEmpty, let sqlState, sqlState.hasPrefix("22") || sqlState.hasPrefix("P0") {
      message = sqlState.hasPrefix("22") ? "a parameter's value was refused" : "a function refused"
    }
    for parameter in parameters {
      guard case .text(let text) = parameter, text.utf8.count >= 3 else { continue }
      message = message.replacingAll(text, with: "…")
    }
    let code = sqlState.map { " (SQLSTATE \($0))" } ?? ""
    let advice = kind(sqlState: sqlState, connectionLost: false) == .conflict ? ": try again" : ""
    return "PostgreSQL: \(message)\(code)\(advice)"
  }
}
