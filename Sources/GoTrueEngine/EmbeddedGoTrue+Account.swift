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
}
