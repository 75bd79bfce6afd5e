import GoTrue

extension EmbeddedGoTrue {
  /// `DELETE /user`: the signed-in user deletes their own account, with every session, token
  /// and code it had (seed 004's GDPR deletion). GoTrue has no such route; authflow's engine
  /// and server do, under PUT /user's MFA rule: a user with a verified factor deletes the
  /// account only from an aal2 session (401 `insufficient_aal` otherwise).
  @concurrent
  public func deleteUser(accessToken: String) async throws(GoTrueFailure) {
    let now = nowMillis
    let id = try withDatabase { database throws(GoTrueAPIError) in
      let (claims, user) = try authorize(accessToken, database, now: now)
      if try lacksSecondFactor(user, session: claims.sessionID, database) {
        throw GoTrueAPIError(
          status: 401, code: .insufficientAAL,
          message: "AAL2 session is required to delete the account when MFA is enabled.")
      }
      return user.id
    }
    try deleteUser(id: id)
  }
}
