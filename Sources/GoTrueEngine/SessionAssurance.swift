import AccountStore
import GoTrue

/// A method a session's user proved after the session began (a row of `session_amr`), such as
/// `totp` after a factor's code was verified.
package struct ProvedMethod: Equatable, Sendable {
  /// The method, as the `amr` claim names it (`totp`).
  package var method: String
  /// When it was last proved, in Unix milliseconds.
  package var provedAt: Int64

  package init(method: String, provedAt: Int64) {
    self.method = method
    self.provedAt = provedAt
  }
}

extension EmbeddedGoTrue.SessionInfo {
  /// The `amr` claim (GoTrue's `CalculateAALAndAMR`): each method the user proved in the
  /// session with when, in Unix seconds, newest first; the method the session began with
  /// included.
  package var amrClaim: JSONValue {
    let entries =
      laterMethods.reversed().map { ($0.method, $0.provedAt) } + [(method.rawValue, startedAt)]
    // A stable sort, so a method proved in the same second as another keeps its place.
    let newestFirst = entries.enumerated().sorted {
      ($0.element.1 / 1_000, -$0.offset) > ($1.element.1 / 1_000, -$1.offset)
    }
    return .array(
      newestFirst.map { entry in
        .object([
          "method": .string(entry.element.0),
          "timestamp": .number(Double(entry.element.1 / 1_000)),
        ])
      })
  }
}

extension EmbeddedGoTrue {
  /// `session` with the assurance level and later methods the store has for it.
  package func withAssurance(_ session: SessionInfo, _ database: Accounts) throws
    -> SessionInfo
  {
    var session = session
    session.aal =
      try database.first(
        "SELECT aal FROM sessions WHERE id = ?", .text(session.id), row: { $0.text(0) }) ?? "aal1"
    session.laterMethods = try database.query(
      "SELECT method, created_at FROM session_amr WHERE session_id = ? ORDER BY created_at, method",
      .text(session.id), row: { ProvedMethod(method: $0.text(0), provedAt: $0.int(1)) })
    return session
  }

  /// Records that `method` was proved in session `sessionID` at `now` (GoTrue's
  /// `AddClaimToSession`: proving it again moves its time).
  package func recordProof(
    of method: String, inSession sessionID: String, _ database: Accounts, now: Int64
  ) throws {
    try database.run(
      """
      INSERT INTO session_amr (session_id, method, created_at) VALUES (?, ?, ?)
      ON CONFLICT (session_id, method) DO UPDATE SET created_at = excluded.created_at
      """, .text(sessionID), .text(method), .integer(now))
  }
}
