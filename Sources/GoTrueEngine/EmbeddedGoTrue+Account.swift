import GoTrue

extension EmbeddedGoTrue {
  /// `DELETE /user`: the signed-in user deletes their own account, with every session, token
  /// and code it had (seed 004's GDPR deletion). GoTrue has no such route; authflow's engine
  /// and server do.
  @concurrent
  public func deleteUser(accessToken: String) async throws(GoTrueFailure) {
    let now = nowMillis
    let id = try withDatabase { database in try authorize(accessToken, database, now: now).user.id }
    try deleteUser(id: id)
  }

  /// `POST /verify` with a link's `token_hash`, for a client holding the link alone.
  @concurrent
  public func verify(type: GoTrueOTPType, tokenHash: String) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    switch try await verifyLink(type: type, tokenHash: tokenHash) {
    case .session(let session): return session
    case .emailChangePending(let message):
      throw .api(GoTrueAPIError(status: 409, code: nil, message: message))
    }
  }
}
