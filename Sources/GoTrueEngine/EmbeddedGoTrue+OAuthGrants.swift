import AccountStore
import GoTrue

/// What a user granted the OAuth server's clients (GoTrue's `UserListOAuthGrants` and
/// `UserRevokeOAuthGrant`): one consent per client, revoked with the client's sessions.
extension EmbeddedGoTrue {
  /// A client the user granted scopes to, and when (`GET /user/oauth/grants`).
  package typealias OAuthGrant = (client: OAuthClientRecord, scopes: [String], grantedAt: Int64)

  /// The grants of the user of `accessToken` not revoked, the latest first; a deleted
  /// client's are left out.
  package func oauthGrants(accessToken: String) throws(GoTrueFailure) -> [OAuthGrant] {
    let now = nowMillis
    return try withDatabase { database throws(GoTrueAPIError) in
      let user = try authorize(accessToken, database, now: now).user
      var grants: [OAuthGrant] = []
      for consent in try database.oauthConsents(ofUser: user.id) {
        guard let client = try database.oauthClient(id: consent.clientID) else { continue }
        grants.append((client, Self.scopes(consent.scopes), consent.grantedAt))
      }
      return grants
    }
  }

  /// `DELETE /user/oauth/grants?client_id=`: revokes the grant and ends the client's sessions
  /// of the user, so its refresh tokens stop working.
  package func revokeOAuthGrant(clientID: String, accessToken: String) throws(GoTrueFailure) {
    if clientID.isEmpty { throw .api(.invalid("client_id query parameter is required")) }
    guard case .success(let id) = GoUUID.parse(clientID) else {
      throw .api(.invalid("invalid client_id format"))
    }
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try authorize(accessToken, database, now: now).user
      guard var consent = try database.oauthConsent(user: user.id, client: id),
        consent.revokedAt == nil
      else {
        throw GoTrueAPIError(
          status: 404, code: .oauthConsentNotFound, message: "No active grant found for this client"
        )
      }
      consent.revokedAt = now
      try database.saveOAuthConsent(consent)
      try database.deleteSessions(ofUser: user.id, oauthClient: id)
      try audit(
        database, .user(user), .tokenRevoked,
        traits: ["oauth_client_id": .string(id), "action": .string("revoke_oauth_grant")],
        now: now)
    }
  }
}
