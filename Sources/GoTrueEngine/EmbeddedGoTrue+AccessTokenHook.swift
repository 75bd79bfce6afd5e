import GoTrue

/// GoTrue's custom access token hook (`tokens/service.go`, `GenerateAccessToken`): the claims a
/// token would carry go to the hook, and the claims it answers are the ones signed.
extension EmbeddedGoTrue {
  /// `session` with its access token re-signed with the claims the custom access token hook
  /// answers for it, when the hook is on; `method` is GoTrue's `authentication_method`
  /// (`password`, `otp`, `token_refresh`…).
  ///
  /// The hook is called after the store's transaction, never inside it. When it fails, a new
  /// session (`isNew`) is removed again, as GoTrue's transaction would not have kept it, and
  /// GoTrue's error is the answer.
  package func withHookClaims(_ session: GoTrueSession, method: String, isNew: Bool)
    async throws(GoTrueFailure) -> GoTrueSession
  {
    guard let hooks, hooks.isEnabled(.customizeAccessToken) else { return session }
    let claims: [String: JSONValue]
    do {
      claims = try JSONWebToken.verify(session.accessToken, keys: tokenKeys, now: nil)
    } catch {
      throw .api(error)
    }
    let payload = hookPayload(
      .customizeAccessToken,
      [
        "user_id": .string(session.user.id), "claims": .object(claims),
        "authentication_method": .string(method),
      ])
    do throws(GoTrueAPIError) {
      let answer = try await hooks.dispatch(.customizeAccessToken, payload: payload)
      var customized = session
      customized.accessToken = JSONWebToken.sign(
        try HookClaims.read(answer), key: tokenKeys.signing)
      return customized
    } catch {
      if isNew, let sessionID = claims["session_id"]?.stringValue {
        try? answer(spending: nil) { database, _ throws(GoTrueAPIError) in
          try database.deleteSession(sessionID)
        }
      }
      throw .api(error)
    }
  }

  /// ``withHookClaims(_:method:isNew:)`` for a verification's outcome, when it is a session.
  package func withHookClaims(_ outcome: GoTrueVerifyOutcome) async throws(GoTrueFailure)
    -> GoTrueVerifyOutcome
  {
    guard case .session(let session) = outcome else { return outcome }
    return .session(try await withHookClaims(session, method: "otp", isNew: true))
  }
}
