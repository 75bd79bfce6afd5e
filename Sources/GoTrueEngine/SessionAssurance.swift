import AccountStore
import GoTrue

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
  package func withAssurance(_ session: SessionInfo, _ database: EngineAccounts)
    throws(GoTrueAPIError)
    -> SessionInfo
  {
    var session = session
    session.aal = try database.session(id: session.id)?.aal ?? "aal1"
    session.laterMethods = try database.provedMethods(inSession: session.id)
    return session
  }

  /// `session` as stored, with the methods proved in it since it began.
  package func withAssurance(_ session: StoredSession, _ database: EngineAccounts)
    throws(GoTrueAPIError) -> SessionInfo
  {
    var info = SessionInfo(session)
    info.aal = session.aal
    info.laterMethods = try database.provedMethods(inSession: session.id)
    return info
  }

  /// Records that `method` was proved in session `sessionID` at `now` (GoTrue's
  /// `AddClaimToSession`: proving it again moves its time).
  package func recordProof(
    of method: String, inSession sessionID: String, _ database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) {
    try database.recordProof(of: method, inSession: sessionID, now: now)
  }
}
